import type { QueryClient } from '@tanstack/react-query';

/** A change to folders or projects shows in the explorer, My projects and the project's own page. */
export const invalidateProjects = (qc: QueryClient) =>
  Promise.all(
    ['/api/org/{orgSlug}/explorer', '/api/org/{orgSlug}/my-projects', '/api/org/{orgSlug}/projects/{projectId}'].map(
      (path) => qc.invalidateQueries({ queryKey: ['get', path] }),
    ),
  );

export const invalidateTeamAccess = (qc: QueryClient) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: ['get', '/api/org/{orgSlug}/projects/{projectId}/team-access'] }),
    qc.invalidateQueries({ queryKey: ['get', '/api/org/{orgSlug}/my-projects'] }),
  ]);
