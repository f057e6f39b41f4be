import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { $api, orgPath, orgQueryKey } from '../../../lib/api-client';

/** The organization's own identity providers (an organization has few: one list, unpaged). */
export const getOrgIdentityProvidersQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/identity-providers', orgPath(orgSlug));
export const useOrgIdentityProviders = (orgSlug: string) => useQuery(getOrgIdentityProvidersQueryOptions(orgSlug));

/** A change to a provider may change what the Domains section offers to require. */
const invalidateProviders = (qc: QueryClient, orgSlug: string) =>
  qc.invalidateQueries({ queryKey: orgQueryKey('/api/org/{orgSlug}/identity-providers', orgSlug) });

export const useCreateOrgIdentityProvider = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/identity-providers', {
    onSuccess: (_data, { params }) => invalidateProviders(qc, params.path.orgSlug),
  });
};

export const useUpdateOrgIdentityProvider = () => {
  const qc = useQueryClient();
  return $api.useMutation('patch', '/api/org/{orgSlug}/identity-providers/{providerId}', {
    onSuccess: (_data, { params }) => invalidateProviders(qc, params.path.orgSlug),
  });
};

export const useDeleteOrgIdentityProvider = () => {
  const qc = useQueryClient();
  return $api.useMutation('delete', '/api/org/{orgSlug}/identity-providers/{providerId}', {
    onSuccess: (_data, { params }) => invalidateProviders(qc, params.path.orgSlug),
  });
};

/** A test sign-in: the authorization URL for the popup; no membership changes. */
export const useTestOrgIdentityProvider = () =>
  $api.useMutation('post', '/api/org/{orgSlug}/identity-providers/{providerId}/test-sign-ins');
