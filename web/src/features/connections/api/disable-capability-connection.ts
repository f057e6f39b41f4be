import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateCapabilityConnections } from './invalidate';

export const useDisableCapabilityConnection = () => {
  const qc = useQueryClient();
  return $api.useMutation('delete', '/api/org/{orgSlug}/capability-connections/{capabilityId}', {
    onSuccess: (_data, { params }) => invalidateCapabilityConnections(qc, params.path.orgSlug),
  });
};
