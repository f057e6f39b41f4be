import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateProviderConnections, SECRET_MUTATION } from './invalidate';

/** Creates (BYOK) or rotates a provider connection; the request carries `authToken` and `vendorApiKey`. */
export const useRotateProviderConnection = () => {
  const qc = useQueryClient();
  return $api.useMutation('put', '/api/org/{orgSlug}/provider-connections/{providerId}', {
    ...SECRET_MUTATION,
    onSuccess: (_data, { params }) => invalidateProviderConnections(qc, params.path.orgSlug),
  });
};
