import { useQuery } from '@tanstack/react-query';
import { $api, orgPath } from '../../../lib/api-client';

export const getMyProjectsQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/my-projects', orgPath(orgSlug));
export const useMyProjects = (orgSlug: string) => useQuery(getMyProjectsQueryOptions(orgSlug));
