import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { $api, orgQueryKey } from '../../../lib/api-client';

// The lists live in lib/ (budgets offer tokens as a scope too); this area keeps their old names.
export { getTokensQueryOptions, useTokens } from '../../../lib/queries/get-api-tokens';

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
