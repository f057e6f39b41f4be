import type { QueryClient } from '@tanstack/react-query';
import { getAgentLibraryQueryOptions } from './get-agent-library';
import { getAgentRolesQueryOptions } from './get-agent-roles';
import { getAgentSkillsQueryOptions } from './get-agent-skills';

/**
 * Roles, skills and the library show one another: a role's skills, a skill's bound roles, the
 * folders' role and skill counts. Any change refreshes all three.
 */
export const invalidateAgents = (qc: QueryClient, orgSlug: string) =>
  Promise.all(
    [getAgentRolesQueryOptions(orgSlug), getAgentSkillsQueryOptions(orgSlug), getAgentLibraryQueryOptions(orgSlug)].map(
      ({ queryKey }) => qc.invalidateQueries({ queryKey }),
    ),
  );
