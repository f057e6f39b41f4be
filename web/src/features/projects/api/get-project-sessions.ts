import { useQuery } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';

export const getProjectSessionsQueryOptions = (orgSlug: string, projectId: string, limit: number) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/projects/{projectId}/sessions', {
    params: { path: { orgSlug, projectId }, query: { limit } },
  });
export const useProjectSessions = (orgSlug: string, projectId: string, limit: number) =>
  useQuery(getProjectSessionsQueryOptions(orgSlug, projectId, limit));
