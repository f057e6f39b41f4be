/**
 * The infinite-query options of a list paged by cursor: each page's `nextCursor` asks for the next.
 * openapi-react-query sends 0 for an undefined page param; an empty query value counts as absent.
 */
export const cursorPages = {
  pageParamName: 'cursor',
  initialPageParam: '',
  getNextPageParam: (page: { nextCursor: string | null }) => page.nextCursor ?? undefined,
} as const;
