import type { QueryClient } from '@tanstack/react-query';
import { getExplorerQueryOptions } from '../../../lib/queries/get-explorer';
import { getMyProjectsQueryOptions } from './get-my-projects';
import { getOrgProjectsQueryKey } from './get-project';
import { getOrgProjectAccessQueryKey } from '../../../lib/queries/get-project-access';
import { getTeamAccessQueryOptions } from '../../../lib/queries/get-team-access';
import { getOrgTeamProjectsQueryKey } from '../../../lib/queries/get-team-projects';

/** A change to folders or projects shows in the explorer, My projects and the project's own page. */
export const invalidateProjects = (qc: QueryClient, orgSlug: string) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: getExplorerQueryOptions(orgSlug).queryKey }),
    qc.invalidateQueries({ queryKey: getMyProjectsQueryOptions(orgSlug).queryKey }),
    qc.invalidateQueries({ queryKey: getOrgProjectsQueryKey(orgSlug) }),
    qc.invalidateQueries({ queryKey: getOrgTeamProjectsQueryKey(orgSlug) }),
  ]);

/**
 * A project's team access and who can open it, the teams' project lists, and My projects, which
 * lists what the caller's teams reach.
 */
export const invalidateTeamAccess = (qc: QueryClient, orgSlug: string, projectId: string) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: getTeamAccessQueryOptions(orgSlug, projectId).queryKey }),
    qc.invalidateQueries({ queryKey: getOrgProjectAccessQueryKey(orgSlug) }),
    qc.invalidateQueries({ queryKey: getOrgTeamProjectsQueryKey(orgSlug) }),
    qc.invalidateQueries({ queryKey: getMyProjectsQueryOptions(orgSlug).queryKey }),
  ]);
