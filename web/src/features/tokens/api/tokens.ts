import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { $api, orgPath } from '../../../lib/api-client';

export const getTokensQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/api-tokens', orgPath(orgSlug));
export const useTokens = (orgSlug: string) => useQuery(getTokensQueryOptions(orgSlug));

const invalidateTokens = (qc: QueryClient) =>
  qc.invalidateQueries({ queryKey: ['get', '/api/org/{orgSlug}/api-tokens'] });

export const useCreateToken = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/api-tokens', { onSuccess: () => invalidateTokens(qc) });
};

export const useRevokeToken = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/api-tokens/{tokenId}/revoke', {
    onSuccess: () => invalidateTokens(qc),
  });
};
