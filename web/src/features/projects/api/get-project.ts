import { useQuery } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';

export const getProjectQueryOptions = (orgSlug: string, projectId: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/projects/{projectId}', { params: { path: { orgSlug, projectId } } });
export const useProject = (orgSlug: string, projectId: string) => useQuery(getProjectQueryOptions(orgSlug, projectId));
