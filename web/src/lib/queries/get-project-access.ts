import { $api, orgQueryKey } from '../api-client';
import { cursorPages } from '../cursor-pages';

export const PROJECT_ACCESS_PAGE_SIZE = 100;
const PATH = '/api/org/{orgSlug}/projects/{projectId}/access';

/** Every project's "who can open this" list in the organization. */
export const getOrgProjectAccessQueryKey = (orgSlug: string) => orgQueryKey(PATH, orgSlug);

/** Who can open the project, the strongest level first, a page at a time. */
export const useProjectAccess = (orgSlug: string, projectId: string) =>
  $api.useInfiniteQuery(
    'get',
    PATH,
    { params: { path: { orgSlug, projectId }, query: { limit: PROJECT_ACCESS_PAGE_SIZE } } },
    cursorPages,
  );
