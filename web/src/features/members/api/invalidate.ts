import type { QueryClient } from '@tanstack/react-query';

/** Membership changes show in the member list, team member lists and the team counts. */
export const invalidateMembers = (qc: QueryClient) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: ['get', '/api/org/{orgSlug}/members'] }),
    qc.invalidateQueries({ queryKey: ['get', '/api/org/{orgSlug}/teams'] }),
    qc.invalidateQueries({ queryKey: ['get', '/api/org/{orgSlug}/teams/{teamId}/members'] }),
  ]);
