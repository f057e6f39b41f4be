import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateProviderConnections } from './invalidate';

export const useDisableProviderConnection = () => {
  const qc = useQueryClient();
  return $api.useMutation('delete', '/api/org/{orgSlug}/provider-connections/{providerId}', {
    onSuccess: (_data, { params }) => invalidateProviderConnections(qc, params.path.orgSlug),
  });
};
