// The request pipeline's order (docs/architecture.md): authenticate → organization → rate → body size →
// parse → org role → contract validation → project guard. Each test sends a request that more
// than one stage would refuse and checks that the earlier stage answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';

let hub: TestHub;
let counter = 0;
const freshOrg = (prefix: string) => seedOrg(hub, `${prefix}-${++counter}`);
const setLimits = async (org: OrgFixture, limits: Record<string, number>) => {
  const res = await org.api('owner', 'PUT', '/capacity-policy', { limits });
  expect(res.status, res.text).toBe(200);
};
/** The lowest requestBodySize an organization may set (64 KiB). */
const FLOOR = 64 * 1024;
/** A team body the contract refuses: no `name`, an unknown property and a malformed slug. */
const INVALID_TEAM = { slug: 'NOT A SLUG', bogus: true };

beforeAll(async () => {
  // requestRate can be limited only under a platform ceiling.
  hub = await TestHub.start({ config: { ceilings: { requestRate: 10_000 } } });
});
afterAll(() => hub?.stop());

describe('the request pipeline', () => {
  it('answers an anonymous caller with a malformed or invalid body 401, revealing nothing of the schema', async () => {
    const org = await freshOrg('anon');
    for (const body of [INVALID_TEAM, '{"slug": ', '[]']) {
      const res = await hub.request('POST', `/api/org/${org.slug}/teams`, { body });
      expectError(res, 401, 'unauthenticated');
      expect(res.text).not.toContain('details');
    }
  });

  it('answers a caller of another organization with a bad body 404 org_not_found', async () => {
    const [org, other] = [await freshOrg('mine'), await freshOrg('theirs')];
    expectError(
      await hub.request('POST', `/api/org/${other.slug}/teams`, { cookie: org.cookies.owner, body: INVALID_TEAM }),
      404,
      'org_not_found',
    );
  });

  it('answers a MEMBER calling an org-admin operation with a bad body 403, naming the operation', async () => {
    const org = await freshOrg('member');
    const res = await org.api('member', 'POST', '/teams', INVALID_TEAM);
    expectError(res, 403, 'org_admin_required');
    expect(res.text).toContain('createTeam');
    // The same bad body from an admin reaches validation.
    expectError(await org.api('owner', 'POST', '/teams', INVALID_TEAM), 400, 'validation_failed');
    // Text that is not JSON at all is refused by the parser, which runs before the role rule.
    expectError(await org.api('member', 'POST', '/teams', '{"slug": '), 400, 'validation_failed');
  });

  it('counts invalid requests toward requestRate', async () => {
    const org = await freshOrg('rate');
    await setLimits(org, { requestRate: 3 });
    hub.clock.advance(60_000);
    // Two invalid requests and a malformed one use up the window...
    expectError(await org.api('owner', 'POST', '/teams', INVALID_TEAM), 400, 'validation_failed');
    expectError(await org.api('member', 'POST', '/teams', INVALID_TEAM), 403, 'org_admin_required');
    expectError(await org.api('owner', 'POST', '/teams', '{"slug": '), 400, 'validation_failed');
    // ...so a valid one is refused, and nothing was created.
    expectError(await org.api('owner', 'POST', '/teams', { slug: 'late', name: 'Late' }), 429, 'rate_limited');
    hub.clock.advance(60_000);
    const teams = await org.call('owner', 'listTeams');
    expect(teams.status).toBe(200);
    expect(teams.body).toEqual({ teams: [], nextCursor: null });
  });

  it('answers an oversized body 413 before parsing or validating it', async () => {
    const org = await freshOrg('big');
    await setLimits(org, { requestBodySize: FLOOR });
    const oversized = { ...INVALID_TEAM, padding: 'x'.repeat(FLOOR) };
    const refused = await org.api('owner', 'POST', '/teams', oversized);
    expectError(refused, 413, 'payload_too_large');
    expect(refused.body).toMatchObject({ error: { message: expect.stringContaining(String(FLOOR)) } });
    // Malformed JSON over the limit is refused for its size too.
    expectError(await org.api('owner', 'POST', '/teams', `{"slug": "${'x'.repeat(FLOOR)}`), 413, 'payload_too_large');
    // A member's oversized body is refused for its size before the role rule.
    expectError(await org.api('member', 'POST', '/teams', oversized), 413, 'payload_too_large');
  });

  it('refuses a body over the limit while it streams, whatever Content-Length claimed', async () => {
    const org = await freshOrg('chunked');
    await setLimits(org, { requestBodySize: FLOOR });
    const body = JSON.stringify({ slug: 'x', name: 'y'.repeat(FLOOR) });
    const chunks = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body));
        controller.close();
      },
    });
    // A streamed body is sent chunked, without Content-Length.
    const res = await fetch(`${hub.url}/api/org/${org.slug}/teams`, {
      method: 'POST',
      headers: { cookie: org.cookies.owner, 'content-type': 'application/json' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  it('checks the project grant only after validation', async () => {
    const org = await freshOrg('guard');
    // A malformed body on a project the member cannot manage: validation answers first.
    const { id } = await okBody(org.call('owner', 'createProject', { body: { name: 'P' } }), 201);
    expectError(
      await org.api('member', 'PUT', `/projects/${id}/team-access`, { role: 'NOPE' }),
      400,
      'validation_failed',
    );
    expectError(
      await org.api('member', 'PUT', `/projects/${id}/team-access`, { teamSlug: 'x', role: 'READ' }),
      403,
      'project_manage_required',
    );
  });
});

describe('query strings, read one way', () => {
  const OFFSET = '2026-11-01T00:00:00+01:00';
  const paths = (from: string, to: string) => [
    `/audit-events?from=${from}&to=${to}`,
    `/usage?from=${from}&to=${to}`,
    `/usage/breakdown?from=${from}&to=${to}`,
    `/usage/series?from=${from}&to=${to}`,
  ];

  it('takes a time with a + offset or a raw : in every operation, as sent or percent-encoded', async () => {
    const org = await freshOrg('query');
    const to = '2026-11-08T00:00:00Z';
    for (const [from, until] of [
      [OFFSET, to],
      [encodeURIComponent(OFFSET), encodeURIComponent(to)],
    ] as const) {
      for (const path of paths(from, until)) {
        const res = await org.api('owner', 'GET', path);
        expect(res.status, `${path}: ${res.text}`).toBe(200);
      }
    }
  });

  it('reads a + as a plus sign, never as a space, everywhere', async () => {
    const org = await freshOrg('plus');
    await okBody(org.call('owner', 'createTeam', { body: { slug: 'plus', name: 'Plus' } }), 201);
    const at = new Date(Date.parse(hub.clock.now().toISOString()));
    // One hour ahead in +01:00 is the same instant: the event is inside [from, …).
    const local = new Date(at.getTime() + 3_600_000).toISOString().slice(0, 19);
    const listed = await org.api('owner', 'GET', `/audit-events?from=${local}+01:00&action=createTeam`);
    expect(listed.status, listed.text).toBe(200);
    expect((listed.body as { events: unknown[] }).events).toHaveLength(1);
    // A space (%20) is not a plus: the same time with a space is no RFC 3339 time.
    for (const path of paths(`${local}%2001:00`, '2026-11-08T00:00:00Z')) {
      const res = await org.api('owner', 'GET', path);
      expectError(res, 400, 'validation_failed');
      expect(res.text, path).toContain('from');
    }
  });
});
