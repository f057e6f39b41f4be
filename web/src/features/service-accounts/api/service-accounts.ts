import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { serviceAccountKeys } from '../../../lib/queries/get-service-accounts';

export const getServiceAccountQueryOptions = (orgSlug: string, serviceAccountId: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/service-accounts/{serviceAccountId}', {
    params: { path: { orgSlug, serviceAccountId } },
  });
export const useServiceAccount = (orgSlug: string, serviceAccountId: string) =>
  useQuery(getServiceAccountQueryOptions(orgSlug, serviceAccountId));

/** The list and every account's page: a change to one shows in both. */
export const invalidateServiceAccounts = (qc: QueryClient, orgSlug: string) =>
  Promise.all(serviceAccountKeys(orgSlug).map((queryKey) => qc.invalidateQueries({ queryKey })));

export const useCreateServiceAccount = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/service-accounts', {
    onSuccess: (_data, { params }) => invalidateServiceAccounts(qc, params.path.orgSlug),
  });
};

export const useUpdateServiceAccount = () => {
  const qc = useQueryClient();
  return $api.useMutation('patch', '/api/org/{orgSlug}/service-accounts/{serviceAccountId}', {
    onSuccess: (_data, { params }) => invalidateServiceAccounts(qc, params.path.orgSlug),
  });
};

export const useDisableServiceAccount = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/service-accounts/{serviceAccountId}/disable', {
    onSuccess: (_data, { params }) => invalidateServiceAccounts(qc, params.path.orgSlug),
  });
};

export const useEnableServiceAccount = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/service-accounts/{serviceAccountId}/enable', {
    onSuccess: (_data, { params }) => invalidateServiceAccounts(qc, params.path.orgSlug),
  });
};

export const useDeleteServiceAccount = () => {
  const qc = useQueryClient();
  return $api.useMutation('delete', '/api/org/{orgSlug}/service-accounts/{serviceAccountId}', {
    onSuccess: (_data, { params }) => invalidateServiceAccounts(qc, params.path.orgSlug),
  });
};

/** Team membership of a service account is a team membership like a member's, by its id. */
export const useJoinTeam = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/teams/{teamId}/members', {
    onSuccess: (_data, { params }) => invalidateServiceAccounts(qc, params.path.orgSlug),
  });
};

export const useLeaveTeam = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/teams/{teamId}/members/{userId}/revoke', {
    onSuccess: (_data, { params }) => invalidateServiceAccounts(qc, params.path.orgSlug),
  });
};
