import { $api } from '../../../lib/api-client';

export interface AuditFilters {
  action?: string | undefined;
  actorId?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export const AUDIT_PAGE_SIZE = 50;

/** The audit log, newest first, a page at a time: the next page starts at the last one's cursor. */
export const useAuditEvents = (orgSlug: string, filters: AuditFilters) =>
  $api.useInfiniteQuery(
    'get',
    '/api/org/{orgSlug}/audit-events',
    { params: { path: { orgSlug }, query: { ...filters, limit: AUDIT_PAGE_SIZE } } },
    {
      pageParamName: 'cursor',
      // openapi-react-query sends 0 for an undefined page param; an empty query value counts as absent.
      initialPageParam: '',
      getNextPageParam: (page) => page.nextCursor ?? undefined,
    },
  );
