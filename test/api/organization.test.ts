import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, expectOk } from '../support/assertions.js';
import { TestHub } from '../support/test-hub.js';
import { seedActors, type ActorName } from '../support/actors.js';

let hub: TestHub;
let cookies: Record<ActorName, string | undefined>;

beforeAll(async () => {
  hub = await TestHub.start();
  cookies = await seedActors(hub);
});
afterAll(() => hub.stop());

describe('GET /api/me', () => {
  it('returns the caller and every organization they are an active member of, with their role', async () => {
    const res = await hub.call('getMe', { cookie: cookies.admin });
    expectOk(res);
    expect(res.body.user).toMatchObject({ imOpenId: 'admin-1', displayName: 'admin-1', avatarUrl: null });
    expect(res.body.organizations).toEqual([
      {
        id: expect.any(String),
        slug: 'acme',
        name: 'Org acme',
        status: 'ACTIVE',
        purgeAt: null,
        role: 'ADMIN',
        teams: [],
      },
    ]);
  });
});

describe('GET /api/org/{orgSlug}', () => {
  it('returns the organization and the caller’s role', async () => {
    const res = await hub.call('getOrganization', { path: { orgSlug: 'acme' }, cookie: cookies.member });
    expect(res.body).toEqual({
      organization: { id: expect.any(String), slug: 'acme', name: 'Org acme', status: 'ACTIVE', purgeAt: null },
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

  it('changes nothing on an invalid body', async () => {
    const attempts = [
      { cookie: cookies.owner, body: { membersCanCreateProjects: 'yes' } },
      { cookie: cookies.owner, body: { membersCanCreateProjects: true, extra: 1 } },
      { cookie: cookies.owner, body: {} },
    ];
    for (const attempt of attempts) {
      const res = await hub.request('PATCH', '/api/org/acme/settings', attempt);
      expect(res.status).toBe(400);
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
