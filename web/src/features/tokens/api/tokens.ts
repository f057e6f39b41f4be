import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { $api, orgPath } from '../../../lib/api-client';

export const getTokensQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/api-tokens', orgPath(orgSlug));
export const useTokens = (orgSlug: string) => useQuery(getTokensQueryOptions(orgSlug));

const invalidateTokens = (qc: QueryClient, orgSlug: string) =>
  qc.invalidateQueries({ queryKey: getTokensQueryOptions(orgSlug).queryKey });

export const useCreateToken = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/api-tokens', {
    onSuccess: (_data, { params }) => invalidateTokens(qc, params.path.orgSlug),
  });
};

export const useRevokeToken = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/api-tokens/{tokenId}/revoke', {
    onSuccess: (_data, { params }) => invalidateTokens(qc, params.path.orgSlug),
  });
};
