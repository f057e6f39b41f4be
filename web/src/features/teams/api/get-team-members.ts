import { useQuery } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';

export const getTeamMembersQueryOptions = (orgSlug: string, teamId: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/teams/{teamId}/members', { params: { path: { orgSlug, teamId } } });
export const useTeamMembers = (orgSlug: string, teamId: string) =>
  useQuery(getTeamMembersQueryOptions(orgSlug, teamId));
