import { $api, orgQueryKey, type Schemas } from '../../../lib/api-client';

export type InvitationStatus = Schemas['InvitationStatus'];

export const INVITATIONS_PAGE_SIZE = 50;
const PATH = '/api/org/{orgSlug}/invitations';

/** The key of every page of the organization's invitations, whatever the status filter. */
export const getInvitationsQueryKey = (orgSlug: string) => orgQueryKey(PATH, orgSlug);

/** The organization's invitations, newest first, a page at a time; `status` narrows them. */
export const useInvitations = (orgSlug: string, status: InvitationStatus | undefined) =>
  $api.useInfiniteQuery(
    'get',
    PATH,
    { params: { path: { orgSlug }, query: { status, limit: INVITATIONS_PAGE_SIZE } } },
    {
      pageParamName: 'cursor',
      // openapi-react-query sends 0 for an undefined page param; an empty query value counts as absent.
      initialPageParam: '',
      getNextPageParam: (page) => page.nextCursor ?? undefined,
    },
  );
