import { useQuery } from '@tanstack/react-query';
import { $api, orgQueryKey } from '../../../lib/api-client';

const PATH = '/api/org/{orgSlug}/projects/{projectId}';

export const getProjectQueryOptions = (orgSlug: string, projectId: string) =>
  $api.queryOptions('get', PATH, { params: { path: { orgSlug, projectId } } });
/** Every project page's answer in the organization. */
export const getOrgProjectsQueryKey = (orgSlug: string) => orgQueryKey(PATH, orgSlug);
export const useProject = (orgSlug: string, projectId: string) => useQuery(getProjectQueryOptions(orgSlug, projectId));
