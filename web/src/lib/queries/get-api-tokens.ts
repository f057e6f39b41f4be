import { useQuery } from '@tanstack/react-query';
import { $api } from '../api-client';

/** The caller's tokens (an org admin's: everyone's), or one service account's. */
export const getTokensQueryOptions = (orgSlug: string, serviceAccountId?: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/api-tokens', {
    params: { path: { orgSlug }, query: serviceAccountId ? { serviceAccountId } : {} },
  });
export const useTokens = (orgSlug: string, serviceAccountId?: string) =>
  useQuery(getTokensQueryOptions(orgSlug, serviceAccountId));
