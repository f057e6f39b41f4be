import { useQuery } from '@tanstack/react-query';
import { $api, orgPath, orgQueryKey } from '../api-client';

/** The organization's service accounts: their page lists them, a member's Remove dialog offers them. */
export const getServiceAccountsQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/service-accounts', orgPath(orgSlug));
export const useServiceAccounts = (orgSlug: string, enabled = true) =>
  useQuery({ ...getServiceAccountsQueryOptions(orgSlug), enabled });

/** Every answer about the organization's service accounts, the list and each one. */
export const serviceAccountKeys = (orgSlug: string) => [
  orgQueryKey('/api/org/{orgSlug}/service-accounts', orgSlug),
  orgQueryKey('/api/org/{orgSlug}/service-accounts/{serviceAccountId}', orgSlug),
];
