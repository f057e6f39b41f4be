import { $api, orgQueryKey } from '../api-client';
import { cursorPages } from '../cursor-pages';

export const TEAM_PROJECTS_PAGE_SIZE = 100;
const PATH = '/api/org/{orgSlug}/teams/{teamId}/projects';

/** Every team's project list in the organization. */
export const getOrgTeamProjectsQueryKey = (orgSlug: string) => orgQueryKey(PATH, orgSlug);

/** The team's grants on projects, by project name, a page at a time. */
export const useTeamProjects = (orgSlug: string, teamId: string) =>
  $api.useInfiniteQuery(
    'get',
    PATH,
    { params: { path: { orgSlug, teamId }, query: { limit: TEAM_PROJECTS_PAGE_SIZE } } },
    cursorPages,
  );
