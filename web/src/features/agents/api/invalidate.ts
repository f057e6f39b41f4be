import type { QueryClient } from '@tanstack/react-query';

/**
 * Roles, skills and the library show one another: a role's skills, a skill's bound roles, the
 * folders' role and skill counts. Any change refreshes all three.
 */
export const invalidateAgents = (qc: QueryClient) =>
  Promise.all(
    ['/api/org/{orgSlug}/agent-roles', '/api/org/{orgSlug}/agent-skills', '/api/org/{orgSlug}/agent-library'].map(
      (path) => qc.invalidateQueries({ queryKey: ['get', path] }),
    ),
  );
