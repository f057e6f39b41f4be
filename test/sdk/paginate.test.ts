// `client.paginate`: every item of every page, following nextCursor (openapi.yaml "Pages"),
// against an msw server that pages a fixed list the way the service does.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../sdk/src/errors.js';
import { createOrgAdminClient } from './support/client.js';
import { BASE, useMockServer } from './support/msw.js';

const server = useMockServer();
const client = () => createOrgAdminClient({ baseUrl: BASE, orgSlug: 'acme' });

const member = (n: number) => ({
  userId: `u${n}`,
  imOpenId: `ou_${n}`,
  displayName: `Member ${n}`,
  avatarUrl: null,
  role: 'MEMBER',
  createdAt: '2026-11-22T10:00:00.000Z',
});

/**
 * Serves `items` under `listKey` at `path` in pages of the asked `limit`; the cursor is the
 * next item's index. Returns the query strings of the requests, in order.
 */
function servePages(path: string, listKey: string, items: unknown[]): string[] {
  const searches: string[] = [];
  server.use(
    http.get(`${BASE}${path}`, ({ request }) => {
      const url = new URL(request.url);
      searches.push(url.search);
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? items.length);
      const end = start + limit;
      return HttpResponse.json({
        [listKey]: items.slice(start, end),
        nextCursor: end < items.length ? String(end) : null,
      });
    }),
  );
  return searches;
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const seen: T[] = [];
  for await (const item of items) seen.push(item);
  return seen;
}

describe('paginate', () => {
  it('yields every item of every page, following nextCursor until null, 100 a page by default', async () => {
    const members = Array.from({ length: 250 }, (_, i) => member(i));
    const searches = servePages('/api/org/acme/members', 'members', members);
    await expect(collect(client().paginate(client().listMembers))).resolves.toEqual(members);
    expect(searches).toEqual(['?limit=100', '?limit=100&cursor=100', '?limit=100&cursor=200']);
  });

  it('passes limit as the page size, and path parameters and the other query values to every page', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({ userId: `u${i}` }));
    const searches = servePages('/api/org/acme/teams/t%201/members', 'members', rows);
    const c = client();
    await expect(collect(c.paginate(c.listTeamMembers, { teamId: 't 1', query: { limit: 2 } }))).resolves.toEqual(rows);
    expect(searches).toEqual(['?limit=2', '?limit=2&cursor=2', '?limit=2&cursor=4']);

    const events = servePages('/api/org/acme/audit-events', 'events', [{ id: 'e1' }, { id: 'e2' }, { id: 'e3' }]);
    await expect(
      collect(c.paginate(c.listAuditEvents, { query: { action: 'addMember', targetType: '', limit: 2 } })),
    ).resolves.toEqual([{ id: 'e1' }, { id: 'e2' }, { id: 'e3' }]);
    expect(events).toEqual(['?action=addMember&limit=2', '?action=addMember&limit=2&cursor=2']);
  });

  it('starts at the cursor the caller gives', async () => {
    const searches = servePages('/api/org/acme/teams', 'teams', ['a', 'b', 'c', 'd']);
    const c = client();
    await expect(collect(c.paginate(c.listTeams, { query: { cursor: '2', limit: 1 } }))).resolves.toEqual(['c', 'd']);
    expect(searches).toEqual(['?limit=1&cursor=2', '?limit=1&cursor=3']);
  });

  it('asks for nothing until iterated, and one page at a time', async () => {
    const searches = servePages('/api/org/acme/agent-skills', 'skills', ['a', 'b', 'c']);
    const c = client();
    const iterator = c.paginate(c.listAgentSkills, { query: { limit: 2 } })[Symbol.asyncIterator]();
    expect(searches).toEqual([]);
    await expect(iterator.next()).resolves.toEqual({ value: 'a', done: false });
    await expect(iterator.next()).resolves.toEqual({ value: 'b', done: false });
    expect(searches).toEqual(['?limit=2']);
    await expect(iterator.next()).resolves.toEqual({ value: 'c', done: false });
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
    expect(searches).toHaveLength(2);
  });

  it('stops on abort: between items and pages, and while a page is under way', async () => {
    const searches = servePages('/api/org/acme/members', 'members', [member(1), member(2), member(3)]);
    const c = client();
    const controller = new AbortController();
    const seen: unknown[] = [];
    const walk = async () => {
      for await (const item of c.paginate(c.listMembers, { query: { limit: 2 } }, { signal: controller.signal })) {
        seen.push(item);
        controller.abort();
      }
    };
    await expect(walk()).rejects.toMatchObject({ name: 'AbortError' });
    expect([seen, searches]).toEqual([[member(1)], ['?limit=2']]);

    // Aborted once the page request has reached the server, not after a guess at how long that takes.
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    server.use(
      http.get(`${BASE}/api/org/acme/teams`, () => {
        arrived();
        return new Promise<Response>(() => {});
      }),
    );
    const inFlight = new AbortController();
    const pending = collect(c.paginate(c.listTeams, undefined, { signal: inFlight.signal }));
    await reached;
    inFlight.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });

    const before = new AbortController();
    before.abort();
    await expect(collect(c.paginate(c.listMembers, undefined, { signal: before.signal }))).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(searches).toHaveLength(1);
  });

  it('rejects with the ApiError of a page that fails', async () => {
    server.use(
      http.get(`${BASE}/api/org/acme/members`, ({ request }) =>
        new URL(request.url).searchParams.has('cursor')
          ? HttpResponse.json({ error: { code: 'validation_failed', message: 'bad cursor' } }, { status: 400 })
          : HttpResponse.json({ members: [member(1)], nextCursor: 'x' }),
      ),
    );
    const seen: unknown[] = [];
    const walk = async () => {
      for await (const item of client().paginate(client().listMembers)) seen.push(item);
    };
    const error = await walk().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect([(error as ApiError).code, seen]).toEqual(['validation_failed', [member(1)]]);
  });

  it('refuses an answer that is not a page, and a cursor that does not move', async () => {
    const c = client();
    server.use(http.get(`${BASE}/api/org/acme/teams`, () => HttpResponse.json({ teams: [], archived: [] })));
    await expect(collect(c.paginate(c.listTeams))).rejects.toThrow(
      new TypeError('paginate: the method did not answer a page (one list and nextCursor)'),
    );
    server.use(http.get(`${BASE}/api/org/acme/teams`, () => HttpResponse.json({ teams: ['a'], nextCursor: 'same' })));
    await expect(collect(c.paginate(c.listTeams))).rejects.toThrow('the same nextCursor twice');
    const notAMethod = c.paginate as (method: unknown) => AsyncIterable<unknown>;
    expect(() => notAMethod('listTeams')).toThrow(TypeError);
  });
});
