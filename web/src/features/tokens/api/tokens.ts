import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { $api, orgQueryKey } from '../../../lib/api-client';

/** The caller's tokens (an org admin's: everyone's), or one service account's. */
export const getTokensQueryOptions = (orgSlug: string, serviceAccountId?: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/api-tokens', {
    params: { path: { orgSlug }, query: serviceAccountId ? { serviceAccountId } : {} },
  });
export const useTokens = (orgSlug: string, serviceAccountId?: string) =>
  useQuery(getTokensQueryOptions(orgSlug, serviceAccountId));

/** Every token list of the organization: the page's, and each service account's. */
const invalidateTokens = (qc: QueryClient, orgSlug: string) =>
  qc.invalidateQueries({ queryKey: orgQueryKey('/api/org/{orgSlug}/api-tokens', orgSlug) });

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

export const useRotateToken = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/api-tokens/{tokenId}/rotate', {
    onSuccess: (_data, { params }) => invalidateTokens(qc, params.path.orgSlug),
  });
};
