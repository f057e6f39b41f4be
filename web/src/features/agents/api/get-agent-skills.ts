import { useQuery } from '@tanstack/react-query';
import { $api, orgPath } from '../../../lib/api-client';

/** Every skill in one answer (no `limit`), by name, each with the roles bound to it. */
export const getAgentSkillsQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/agent-skills', orgPath(orgSlug));
export const useAgentSkills = (orgSlug: string) => useQuery(getAgentSkillsQueryOptions(orgSlug));
