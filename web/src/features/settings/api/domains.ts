import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { $api, orgPath, orgQueryKey } from '../../../lib/api-client';

/** Without `limit` the server answers the whole list; an organization has at most a hundred domains. */
export const getDomainsQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/domains', orgPath(orgSlug));
export const useDomains = (orgSlug: string) => useQuery(getDomainsQueryOptions(orgSlug));

/** The Domains section and the automatic-membership form read the same list. */
const invalidateDomains = (qc: QueryClient, orgSlug: string) =>
  qc.invalidateQueries({ queryKey: orgQueryKey('/api/org/{orgSlug}/domains', orgSlug) });

export const useAddDomain = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/domains', {
    onSuccess: (_data, { params }) => invalidateDomains(qc, params.path.orgSlug),
  });
};

export const useVerifyDomain = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/domains/{domainId}/verify', {
    // A refused verification may still have changed the list (another organization verified it first).
    onSettled: (_data, _error, { params }) => invalidateDomains(qc, params.path.orgSlug),
  });
};

export const useDeleteDomain = () => {
  const qc = useQueryClient();
  return $api.useMutation('delete', '/api/org/{orgSlug}/domains/{domainId}', {
    onSuccess: (_data, { params }) => invalidateDomains(qc, params.path.orgSlug),
  });
};

/** Requires one identity provider for a verified domain's people, or (null) stops requiring it. */
export const useUpdateDomain = () => {
  const qc = useQueryClient();
  return $api.useMutation('patch', '/api/org/{orgSlug}/domains/{domainId}', {
    onSuccess: (_data, { params }) => invalidateDomains(qc, params.path.orgSlug),
  });
};
