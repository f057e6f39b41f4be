import { useQuery } from '@tanstack/react-query';
import { $api, orgPath } from '../api-client';

export const getMembersQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/members', orgPath(orgSlug));
export const useMembers = (orgSlug: string) => useQuery(getMembersQueryOptions(orgSlug));
