import { useQuery } from '@tanstack/react-query';
import { $api, orgQueryKey } from '../api-client';

const PATH = '/api/org/{orgSlug}/projects/{projectId}/team-access';

export const getTeamAccessQueryOptions = (orgSlug: string, projectId: string) =>
  $api.queryOptions('get', PATH, { params: { path: { orgSlug, projectId } } });
/** Every project's team access list in the organization. */
export const getOrgTeamAccessQueryKey = (orgSlug: string) => orgQueryKey(PATH, orgSlug);
export const useTeamAccess = (orgSlug: string, projectId: string) =>
  useQuery(getTeamAccessQueryOptions(orgSlug, projectId));
