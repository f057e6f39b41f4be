import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateCapabilityConnections, SECRET_MUTATION } from './invalidate';

/** Creates or rotates a capability connection; the request carries the header values, which are secrets. */
export const usePutCapabilityConnection = () => {
  const qc = useQueryClient();
  return $api.useMutation('put', '/api/org/{orgSlug}/capability-connections/{capabilityId}', {
    ...SECRET_MUTATION,
    onSuccess: (_data, { params }) => invalidateCapabilityConnections(qc, params.path.orgSlug),
  });
};
