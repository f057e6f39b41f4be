import { useQuery } from '@tanstack/react-query';
import { $api, orgQueryKey } from '../api-client';

const PATH = '/api/org/{orgSlug}/teams/{teamId}/members';

export const getTeamMembersQueryOptions = (orgSlug: string, teamId: string) =>
  $api.queryOptions('get', PATH, { params: { path: { orgSlug, teamId } } });
/** Every team's member list in the organization. */
export const getOrgTeamMembersQueryKey = (orgSlug: string) => orgQueryKey(PATH, orgSlug);
export const useTeamMembers = (orgSlug: string, teamId: string) =>
  useQuery(getTeamMembersQueryOptions(orgSlug, teamId));
