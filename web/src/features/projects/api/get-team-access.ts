import { useQuery } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';

export const getTeamAccessQueryOptions = (orgSlug: string, projectId: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/projects/{projectId}/team-access', {
    params: { path: { orgSlug, projectId } },
  });
export const useTeamAccess = (orgSlug: string, projectId: string) =>
  useQuery(getTeamAccessQueryOptions(orgSlug, projectId));
