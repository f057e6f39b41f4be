// `client.paginate(method, args?, options?)`: the items of every page of a paged list, one at a
// time. A paged list answers `{ <items>: [...], nextCursor }` (openapi.yaml "Pages"); the
// next page is asked for with `query.cursor = nextCursor` until it is null.
import type { CallOptions } from './operation-types.js';

/** Page size `paginate` asks for when the caller's `query` names no `limit`. */
export const DEFAULT_PAGE_SIZE = 100;

/** What a paged list answers: its items under one array property, and `nextCursor`. */
export interface PagedResult {
  nextCursor: string | null;
}

/**
 * A client method whose result is a page: the lists that grow (members, teams, …). Its
 * argument is whatever the method takes; `paginate` checks it against the method's own
 * `Parameters`.
 */
// biome-ignore lint/suspicious/noExplicitAny: any method's argument (optional, so every method fits).
export type PagedMethod = (args?: any, options?: CallOptions) => Promise<PagedResult>;

type ListKeys<Page> = {
  [Key in keyof Page]-?: Key extends 'nextCursor' ? never : Page[Key] extends readonly unknown[] ? Key : never;
}[keyof Page];

/** The item type of a paged method: the element of the array beside `nextCursor`. */
export type PageItem<Method extends PagedMethod> =
  Awaited<ReturnType<Method>> extends infer Page
    ? Page[ListKeys<Page> & keyof Page] extends readonly (infer Item)[]
      ? Item
      : never
    : never;

/**
 * Yields the items of every page of `method`, following `nextCursor` until it is null.
 * `args` are the method's own (path parameters, `query`), passed unchanged to every page but
 * for `query.cursor`; `query.limit` is the page size (default 100), and a `query.cursor`
 * given starts there. `options.signal` aborts the request under way and stops the iteration:
 * the next step rejects with the signal's reason (an `AbortError`).
 */
export type Paginate = <Method extends PagedMethod>(
  method: Method,
  ...args: Parameters<Method>
) => AsyncIterable<PageItem<Method>>;

type Query = Record<string, unknown> & { limit?: unknown; cursor?: unknown };

function listOf(page: unknown): unknown[] {
  const lists =
    typeof page === 'object' && page !== null
      ? Object.entries(page).filter(([key, value]) => key !== 'nextCursor' && Array.isArray(value))
      : [];
  if (lists.length !== 1 || !('nextCursor' in (page as object))) {
    throw new TypeError('paginate: the method did not answer a page (one list and nextCursor)');
  }
  return (lists[0] as [string, unknown[]])[1];
}

async function* pages(
  method: PagedMethod,
  args: (Record<string, unknown> & { query?: Query }) | undefined,
  options: CallOptions | undefined,
): AsyncGenerator<unknown> {
  const signal = options?.signal;
  const { query, ...rest } = args ?? {};
  const { limit = DEFAULT_PAGE_SIZE, cursor: first, ...filters } = query ?? {};
  let cursor = first;
  for (;;) {
    signal?.throwIfAborted();
    const page = await method({ ...rest, query: { ...filters, limit, cursor } }, options);
    for (const item of listOf(page)) {
      signal?.throwIfAborted();
      yield item;
    }
    const next = page.nextCursor;
    if (next === null || next === undefined) return;
    // A service that answered the cursor it was given would otherwise be asked forever.
    if (next === cursor) throw new Error(`paginate: the service answered the same nextCursor twice (${next})`);
    cursor = next;
  }
}

export const paginate: Paginate = (method, ...args) => {
  if (typeof method !== 'function') throw new TypeError('paginate: the first argument must be a client method');
  const [methodArgs, options] = args as [(Record<string, unknown> | undefined)?, (CallOptions | undefined)?];
  return pages(method, methodArgs, options) as AsyncIterable<never>;
};
