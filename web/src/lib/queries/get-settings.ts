import { useQuery } from '@tanstack/react-query';
import { $api, orgPath } from '../api-client';

export const getSettingsQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/settings', orgPath(orgSlug));
export const useSettings = (orgSlug: string) => useQuery(getSettingsQueryOptions(orgSlug));
