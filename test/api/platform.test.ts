import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, expectOk } from '../support/assertions.js';
import { TestHub } from '../support/test-hub.js';
import { seedActors, type ActorName } from '../support/actors.js';
import { sampleRequests } from '../support/sample-requests.js';

let hub: TestHub;
let cookies: Record<ActorName, string | undefined>;

beforeAll(async () => {
  hub = await TestHub.start({ config: { bodyLimitBytes: 64 * 1024 } });
  cookies = await seedActors(hub);
});
afterAll(() => hub.stop());

const mutating = () => sampleRequests().filter((r) => r.method !== 'GET');

describe('an org admin operation', () => {
  it("refuses an anonymous caller, a member and another organization's owner", async () => {
    const admin = sampleRequests().find((r) => r.operationId === 'listMembers')!;
    expect((await hub.request('GET', admin.path)).status).toBe(401);
    expect(errorBody(await hub.request('GET', admin.path, { cookie: cookies.member })).error.code).toBe(
      'org_admin_required',
    );
    expect(errorBody(await hub.request('GET', admin.path, { cookie: cookies.otherOrgOwner })).error.code).toBe(
      'org_not_found',
    );
  });
});

describe('CSRF origin check', () => {
  it('rejects every mutating operation when Origin names another site', async () => {
    for (const sample of mutating()) {
      const res = await hub.request(sample.method, sample.path, {
        cookie: cookies.owner,
        body: sample.body,
        headers: { origin: 'https://evil.example' },
      });
      expect(res.status, sample.operationId).toBe(403);
      expect(errorBody(res).error.code, sample.operationId).toBe('csrf_rejected');
    }
  });

  it('rejects every mutating operation when, without Origin, Sec-Fetch-Site says cross-site', async () => {
    for (const sample of mutating()) {
      for (const site of ['cross-site', 'same-site']) {
        const res = await hub.request(sample.method, sample.path, {
          cookie: cookies.owner,
          body: sample.body,
          headers: { origin: '', 'sec-fetch-site': site },
        });
        expect(res.status, `${sample.operationId} ${site}`).toBe(403);
        expect(errorBody(res).error.code).toBe('csrf_rejected');
      }
    }
  });

  it('lets same-origin and non-browser requests through', async () => {
    const body = { membersCanCreateProjects: false };
    const sameOrigin = await hub.request('PATCH', '/api/org/acme/settings', { cookie: cookies.owner, body });
    const fetchSite = await hub.request('PATCH', '/api/org/acme/settings', {
      cookie: cookies.owner,
      body,
      headers: { origin: '', 'sec-fetch-site': 'same-origin' },
    });
    const noHeaders = await hub.request('PATCH', '/api/org/acme/settings', {
      cookie: cookies.owner,
      body,
      headers: { origin: '' },
    });
    expect([sameOrigin.status, fetchSite.status, noHeaders.status]).toEqual([200, 200, 200]);
  });

  it('leaves state untouched when it rejects', async () => {
    await hub.request('PATCH', '/api/org/acme/settings', {
      cookie: cookies.owner,
      body: { membersCanCreateProjects: true },
      headers: { origin: 'https://evil.example' },
    });
    const settings = await hub.call('getOrgSettings', { path: { orgSlug: 'acme' }, cookie: cookies.owner });
    expectOk(settings);
    expect(settings.body.membersCanCreateProjects).toBe(false);
  });
});

describe('the error envelope', () => {
  it('answers unknown paths and methods in the envelope', async () => {
    const missing = await hub.request('GET', '/api/nothing-here', { cookie: cookies.owner });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    const method = await hub.request('DELETE', '/api/me', { cookie: cookies.owner });
    expect(method.status).toBe(405);
    expect(errorBody(method).error.code).toBe('method_not_allowed');
  });

  it('answers a body over the limit with 413 payload_too_large', async () => {
    const res = await hub.request('PATCH', '/api/org/acme/settings', {
      cookie: cookies.owner,
      body: JSON.stringify({ membersCanCreateProjects: true, pad: 'x'.repeat(70 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(errorBody(res).error.code).toBe('payload_too_large');
  });

  it('rejects a body that is not JSON with 415 unsupported_media_type', async () => {
    const res = await hub.request('PATCH', '/api/org/acme/settings', {
      cookie: cookies.owner,
      body: 'membersCanCreateProjects=true',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
    expect(errorBody(res).error.code).toBe('unsupported_media_type');
  });

  it('takes body types as sent: no string is turned into a boolean or a number into a string', async () => {
    for (const body of [{ membersCanCreateProjects: 'true' }, { membersCanCreateProjects: 1 }]) {
      const res = await hub.request('PATCH', '/api/org/acme/settings', { cookie: cookies.owner, body });
      expect(res.status).toBe(400);
      expect(errorBody(res).error.code).toBe('validation_failed');
    }
    const team = await hub.request('POST', '/api/org/acme/teams', {
      cookie: cookies.owner,
      body: { slug: 'typed', name: 7 },
    });
    expect(team.status).toBe(400);
  });

  it('rejects unknown query parameters', async () => {
    const res = await hub.request('GET', '/api/org/acme?debug=1', { cookie: cookies.owner });
    expect(res.status).toBe(400);
    expect(errorBody(res).error.code).toBe('validation_failed');
  });
});

describe('request ids and logs', () => {
  it("gives every response a fresh X-Request-Id of the server's own, whatever the caller sent", async () => {
    const own = await hub.call('getMe', { cookie: cookies.owner, headers: { 'x-request-id': 'trace-123' } });
    expect(own.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await hub.call('getMe', { cookie: cookies.owner, headers: { 'x-request-id': 'has spaces' } });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs one structured line per request, never with a token or cookie', async () => {
    const token = await hub.loginToken('owner-1');
    const login = await hub.call('login', { query: { token } });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const me = await hub.call('getMe', { cookie, headers: { 'x-request-id': 'log-check-1' } });
    const reqId = me.headers.get('x-request-id');
    const line = hub.logLines.map((l) => JSON.parse(l) as { reqId?: string }).find((l) => l.reqId === reqId);
    expect(line).toMatchObject({
      clientReqId: 'log-check-1',
      method: 'GET',
      path: '/api/me',
      status: 200,
      msg: 'request',
    });
    const all = hub.logLines.join('\n');
    expect(all).not.toContain(token);
    expect(all).not.toContain(cookie.split('=')[1]);
  });
});

describe('GET /healthz', () => {
  it('answers ok after touching the database', async () => {
    const res = await hub.request('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});
