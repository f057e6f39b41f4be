import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, expectOk } from '../support/assertions.js';
import { TestHub } from '../support/test-hub.js';
import { ACTORS, seedActors, type ActorName } from '../support/actors.js';

let hub: TestHub;
let cookies: Record<ActorName, string | undefined>;

beforeAll(async () => {
  hub = await TestHub.start();
  cookies = await seedActors(hub);
});
afterAll(() => hub.stop());

type Expectation = [status: number, code?: string];

/** Who gets what on each implemented operation of this area. */
const matrix: Array<{
  name: string;
  method: string;
  path: string;
  body?: unknown;
  expect: Record<ActorName, Expectation>;
}> = [
  {
    name: 'getMe',
    method: 'GET',
    path: '/api/me',
    expect: { anonymous: [401, 'unauthenticated'], otherOrgOwner: [200], member: [200], admin: [200], owner: [200] },
  },
  {
    name: 'getOrganization',
    method: 'GET',
    path: '/api/org/acme',
    expect: {
      anonymous: [401, 'unauthenticated'],
      otherOrgOwner: [404, 'org_not_found'],
      member: [200],
      admin: [200],
      owner: [200],
    },
  },
  {
    name: 'getOrgSettings',
    method: 'GET',
    path: '/api/org/acme/settings',
    expect: {
      anonymous: [401, 'unauthenticated'],
      otherOrgOwner: [404, 'org_not_found'],
      member: [200],
      admin: [200],
      owner: [200],
    },
  },
  {
    name: 'updateOrgSettings',
    method: 'PATCH',
    path: '/api/org/acme/settings',
    body: { membersCanCreateProjects: false },
    expect: {
      anonymous: [401, 'unauthenticated'],
      otherOrgOwner: [404, 'org_not_found'],
      member: [403, 'org_admin_required'],
      admin: [200],
      owner: [200],
    },
  },
];

describe('who may call the session and organization operations', () => {
  for (const row of matrix) {
    for (const actor of ACTORS) {
      const [status, code] = row.expect[actor];
      it(`${row.name} as ${actor} → ${status}${code ? ` ${code}` : ''}`, async () => {
        const res = await hub.request(row.method, row.path, { cookie: cookies[actor], body: row.body });
        expect(res.status).toBe(status);
        if (code) expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
      });
    }
  }
});

describe('GET /api/me', () => {
  it('returns the caller and every organization they are an active member of, with their role', async () => {
    const res = await hub.call('getMe', { cookie: cookies.admin });
    expectOk(res);
    expect(res.body.user).toMatchObject({ imOpenId: 'admin-1', displayName: 'admin-1', avatarUrl: null });
    expect(res.body.organizations).toEqual([
      { id: expect.any(String), slug: 'acme', name: 'Org acme', status: 'ACTIVE', role: 'ADMIN' },
    ]);
  });
});

describe('GET /api/org/{orgSlug}', () => {
  it('returns the organization and the caller’s role', async () => {
    const res = await hub.call('getOrganization', { path: { orgSlug: 'acme' }, cookie: cookies.member });
    expect(res.body).toEqual({
      organization: { id: expect.any(String), slug: 'acme', name: 'Org acme', status: 'ACTIVE' },
      actorRole: 'MEMBER',
    });
  });

  it('does not reveal whether an unknown slug exists', async () => {
    const unknown = await hub.call('getOrganization', { path: { orgSlug: 'no-such-org' }, cookie: cookies.owner });
    const foreign = await hub.call('getOrganization', { path: { orgSlug: 'globex' }, cookie: cookies.owner });
    expect(unknown.status).toBe(404);
    expect(foreign.status).toBe(404);
    expect(errorBody(unknown).error.code).toBe('org_not_found');
    expect(errorBody(foreign).error.code).toBe('org_not_found');
  });

  it('answers a malformed slug like any slug not among the caller’s: 404, before validation', async () => {
    // The organization stage runs before contract validation, so the answer reveals nothing
    // about which slugs could exist.
    const res = await hub.call('getOrganization', { path: { orgSlug: 'Not_A_Slug' }, cookie: cookies.owner });
    expect(res.status).toBe(404);
    expect(errorBody(res).error.code).toBe('org_not_found');
  });
});

describe('organization settings', () => {
  const tokens = { personalAllowed: true, requireExpiry: false, maxLifetimeDays: null, revokeUnusedAfterDays: null };
  const settings = () => hub.call('getOrgSettings', { path: { orgSlug: 'acme' }, cookie: cookies.member });

  it('starts with members unable to create projects', async () => {
    expect((await settings()).body).toEqual({ membersCanCreateProjects: false, autoJoin: null, tokens });
  });

  it('lets an admin change the setting and returns the new settings', async () => {
    const res = await hub.call('updateOrgSettings', {
      path: { orgSlug: 'acme' },
      cookie: cookies.admin,
      body: { membersCanCreateProjects: true },
    });
    expect(res.body).toEqual({ membersCanCreateProjects: true, autoJoin: null, tokens });
    expect((await settings()).body).toEqual({ membersCanCreateProjects: true, autoJoin: null, tokens });
    await hub.call('updateOrgSettings', {
      path: { orgSlug: 'acme' },
      cookie: cookies.owner,
      body: { membersCanCreateProjects: false },
    });
    expect((await settings()).body).toEqual({ membersCanCreateProjects: false, autoJoin: null, tokens });
  });

  it('changes nothing when a member, a stranger or an invalid body tries', async () => {
    const attempts = [
      { cookie: cookies.member, body: { membersCanCreateProjects: true } },
      { cookie: cookies.otherOrgOwner, body: { membersCanCreateProjects: true } },
      { cookie: undefined, body: { membersCanCreateProjects: true } },
      { cookie: cookies.owner, body: { membersCanCreateProjects: 'yes' } },
      { cookie: cookies.owner, body: { membersCanCreateProjects: true, extra: 1 } },
      { cookie: cookies.owner, body: {} },
    ];
    for (const attempt of attempts) {
      const res = await hub.request('PATCH', '/api/org/acme/settings', attempt);
      expect(res.status).toBeGreaterThanOrEqual(400);
    }
    expect((await settings()).body).toEqual({ membersCanCreateProjects: false, autoJoin: null, tokens });
  });

  it('names the offending field of an invalid body', async () => {
    const res = await hub.request('PATCH', '/api/org/acme/settings', {
      cookie: cookies.owner,
      body: { membersCanCreateProjects: 'yes' },
    });
    expect(res.status).toBe(400);
    const { error } = errorBody(res);
    expect(error.code).toBe('validation_failed');
    expect(error.message).toContain('membersCanCreateProjects');
    expect(error.details?.[0]?.path).toContain('membersCanCreateProjects');
  });

  it('answers malformed JSON with validation_failed', async () => {
    const res = await hub.request('PATCH', '/api/org/acme/settings', {
      cookie: cookies.owner,
      body: '{"membersCanCreateProjects":',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'validation_failed', message: 'The request body is not valid JSON.' } });
  });
});
