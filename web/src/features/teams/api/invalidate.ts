import type { QueryClient } from '@tanstack/react-query';

/** Team changes show in the team list (names, counts), team pages and project access lists. */
export const invalidateTeams = (qc: QueryClient) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: ['get', '/api/org/{orgSlug}/teams'] }),
    qc.invalidateQueries({ queryKey: ['get', '/api/org/{orgSlug}/teams/{teamId}/members'] }),
    qc.invalidateQueries({ queryKey: ['get', '/api/org/{orgSlug}/projects/{projectId}/team-access'] }),
  ]);
