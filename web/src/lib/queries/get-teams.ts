import { useQuery } from '@tanstack/react-query';
import { $api, orgPath } from '../api-client';

export const getTeamsQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/teams', orgPath(orgSlug));
/** `enabled: false` for callers who may not list teams (a MEMBER). */
export const useTeams = (orgSlug: string, enabled = true) => useQuery({ ...getTeamsQueryOptions(orgSlug), enabled });
