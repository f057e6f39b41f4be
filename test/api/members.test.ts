import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedActors, type ActorName } from '../support/actors.js';
import { seedOrg, userIdOf, type OrgFixture } from '../support/org-fixture.js';
import { errorBody, expectError, expectOk, okBody } from '../support/assertions.js';
import type { RequestBody } from '../support/api-client.js';
import { TestHub } from '../support/test-hub.js';

let hub: TestHub;
let cookies: Record<ActorName, string | undefined>;

beforeAll(async () => {
  hub = await TestHub.start();
  cookies = await seedActors(hub);
});
afterAll(() => hub.stop());

const now = () => hub.clock.now().toISOString();
/** Moves the clock on, so the next write gets a timestamp of its own. */
const tick = () => hub.clock.advance(60_000);

async function listMembers(org: OrgFixture) {
  const res = await org.call('owner', 'listMembers');
  expectOk(res);
  return res.body.members;
}

async function addMember(org: OrgFixture, body: RequestBody<'addMember'>, actor: 'owner' | 'admin' = 'owner') {
  const res = await org.call(actor, 'addMember', { body });
  expectOk(res, 201);
  return res.body;
}

describe('GET /members', () => {
  it('lists the active members as complete objects, by display name (case-insensitively), then imOpenId', async () => {
    const seededAt = now();
    const org = await seedOrg(hub, 'm-list');
    tick();
    const addedAt = now();
    const zoe = await addMember(org, { imOpenId: 'ou-zoe', displayName: 'alice', role: 'MEMBER' });
    const bobB = await addMember(org, { imOpenId: 'ou-b', displayName: 'Bob', role: 'ADMIN' });
    const bobA = await addMember(org, { imOpenId: 'ou-a', displayName: 'Bob', role: 'MEMBER' });
    const gone = await addMember(org, { imOpenId: 'ou-gone', displayName: 'Aaron', role: 'MEMBER' });
    expect((await org.call('owner', 'revokeMember', { path: { userId: gone.userId } })).status).toBe(200);

    expect(await listMembers(org)).toEqual([
      {
        userId: zoe.userId,
        imOpenId: 'ou-zoe',
        displayName: 'alice',
        avatarUrl: null,
        role: 'MEMBER',
        createdAt: addedAt,
      },
      {
        userId: bobA.userId,
        imOpenId: 'ou-a',
        displayName: 'Bob',
        avatarUrl: null,
        role: 'MEMBER',
        createdAt: addedAt,
      },
      { userId: bobB.userId, imOpenId: 'ou-b', displayName: 'Bob', avatarUrl: null, role: 'ADMIN', createdAt: addedAt },
      {
        userId: org.userIds.admin,
        imOpenId: 'm-list-admin',
        displayName: 'm-list-admin',
        avatarUrl: null,
        role: 'ADMIN',
        createdAt: seededAt,
      },
      {
        userId: org.userIds.member,
        imOpenId: 'm-list-member',
        displayName: 'm-list-member',
        avatarUrl: null,
        role: 'MEMBER',
        createdAt: seededAt,
      },
      {
        userId: org.userIds.owner,
        imOpenId: 'm-list-owner',
        displayName: 'Owner of m-list',
        avatarUrl: null,
        role: 'OWNER',
        createdAt: seededAt,
      },
    ]);
  });

  it('shows an admin the same list and never another organization’s members', async () => {
    const org = await seedOrg(hub, 'm-list-b');
    const asAdmin = await org.call('admin', 'listMembers');
    expectOk(asAdmin);
    expect(asAdmin.body).toEqual({ members: await listMembers(org), nextCursor: null });
    expect(asAdmin.body.members.map((m: { imOpenId: string }) => m.imOpenId).sort()).toEqual([
      'm-list-b-admin',
      'm-list-b-member',
      'm-list-b-owner',
    ]);
  });
});

describe('POST /members', () => {
  it('creates a new user with the given display name and answers 201 with the member', async () => {
    const org = await seedOrg(hub, 'm-add');
    tick();
    const at = now();
    const res = await org.call('admin', 'addMember', {
      body: { imOpenId: 'ou-new', displayName: 'New Person', role: 'MEMBER' },
    });
    expectOk(res, 201);
    const userId = await userIdOf(hub, 'ou-new');
    expect(res.body).toEqual({
      userId,
      imOpenId: 'ou-new',
      displayName: 'New Person',
      avatarUrl: null,
      role: 'MEMBER',
      createdAt: at,
    });
    expect(await listMembers(org)).toContainEqual(res.body);

    // The new member can sign in and reaches the organization.
    const cookie = await hub.login('ou-new');
    const orgView = await hub.call('getOrganization', { path: { orgSlug: 'm-add' }, cookie });
    expectOk(orgView);
    expect(orgView.body.actorRole).toBe('MEMBER');
  });

  it('defaults the display name of a new user to the imOpenId', async () => {
    const org = await seedOrg(hub, 'm-add-default');
    const member = await addMember(org, { imOpenId: 'ou-plain', role: 'ADMIN' });
    expect(member).toMatchObject({ imOpenId: 'ou-plain', displayName: 'ou-plain', role: 'ADMIN' });
  });

  it('names an existing user as this organization says, changing nothing another organization shows', async () => {
    const org = await seedOrg(hub, 'm-add-existing');
    const member = await addMember(org, { imOpenId: 'globex-owner', displayName: 'Renamed', role: 'MEMBER' });
    expect(member).toMatchObject({
      userId: await userIdOf(hub, 'globex-owner'),
      imOpenId: 'globex-owner',
      displayName: 'Renamed',
    });
    const listed = await hub.call('listMembers', { path: { orgSlug: 'globex' }, cookie: cookies.otherOrgOwner });
    expectOk(listed);
    expect(listed.body.members.find((m) => m.imOpenId === 'globex-owner')?.displayName).toBe('Owner of globex');
    // The user's place in the other organization is untouched.
    const globex = await hub.call('getOrganization', { path: { orgSlug: 'globex' }, cookie: cookies.otherOrgOwner });
    expectOk(globex);
    expect(globex.body.actorRole).toBe('OWNER');
  });

  it('answers 409 already_member for an active member and changes nothing', async () => {
    const org = await seedOrg(hub, 'm-add-dup');
    const before = await listMembers(org);
    const res = await org.call('owner', 'addMember', {
      body: { imOpenId: 'm-add-dup-member', displayName: 'Other', role: 'ADMIN' },
    });
    expectError(res, 409, 'already_member');
    expect(await listMembers(org)).toEqual(before);
  });

  it('lets an OWNER add a member with the OWNER role', async () => {
    const org = await seedOrg(hub, 'm-add-owner');
    const granted = await org.call('owner', 'addMember', { body: { imOpenId: 'ou-would-be-owner', role: 'OWNER' } });
    expectOk(granted, 201);
    expect(granted.body.role).toBe('OWNER');
  });

  it('reactivates a revoked membership with the new role and a new createdAt', async () => {
    const seededAt = now();
    const org = await seedOrg(hub, 'm-reactivate');
    expect((await org.call('admin', 'revokeMember', { path: { userId: org.userIds.member } })).status).toBe(200);
    expect(
      (await hub.call('getOrganization', { path: { orgSlug: 'm-reactivate' }, cookie: org.cookies.member })).status,
    ).toBe(404);

    tick();
    const at = now();
    const res = await org.call('admin', 'addMember', {
      body: { imOpenId: 'm-reactivate-member', displayName: 'Back Again', role: 'ADMIN' },
    });
    expectOk(res, 201);
    // The membership starts over, with the name this organization gives now.
    expect(res.body).toEqual({
      userId: org.userIds.member,
      imOpenId: 'm-reactivate-member',
      displayName: 'Back Again',
      avatarUrl: null,
      role: 'ADMIN',
      createdAt: at,
    });
    expect(at).not.toBe(seededAt);
    const listed = (await listMembers(org)).filter((m) => m.userId === org.userIds.member);
    expect(listed).toEqual([res.body]);
    // The session that lost access gets it back, with the new role.
    const orgView = await hub.call('getOrganization', {
      path: { orgSlug: 'm-reactivate' },
      cookie: org.cookies.member,
    });
    expectOk(orgView);
    expect(orgView.body.actorRole).toBe('ADMIN');
  });

  it('rejects invalid bodies with 400 validation_failed and changes nothing', async () => {
    const org = await seedOrg(hub, 'm-add-invalid');
    const before = await listMembers(org);
    const bodies = [
      { imOpenId: 'ou-x' },
      { role: 'MEMBER' },
      { imOpenId: 'ou-x', role: 'KING' },
      { imOpenId: '', role: 'MEMBER' },
      { imOpenId: 'x'.repeat(129), role: 'MEMBER' },
      { imOpenId: 'ou-x', displayName: '', role: 'MEMBER' },
      { imOpenId: 'ou-x', role: 'MEMBER', extra: true },
    ];
    for (const body of bodies) expectError(await org.api('owner', 'POST', '/members', body), 400, 'validation_failed');
    expect(await listMembers(org)).toEqual(before);
  });

  it('lets only one of two concurrent additions of the same new user succeed', async () => {
    const org = await seedOrg(hub, 'm-add-race');
    const body: RequestBody<'addMember'> = { imOpenId: 'ou-racer', role: 'MEMBER' };
    const results = await Promise.all([
      org.call('owner', 'addMember', { body }),
      org.call('admin', 'addMember', { body }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(errorBody(results.find((r) => r.status === 409)!).error.code).toBe('already_member');
    expect((await listMembers(org)).filter((m) => m.imOpenId === 'ou-racer')).toHaveLength(1);
  });
});

describe('PATCH /members/{userId}', () => {
  it('changes a role, answers with the whole member, and the change holds on the very next request', async () => {
    const seededAt = now();
    const org = await seedOrg(hub, 'm-role');
    expectError(await org.call('member', 'listMembers'), 403, 'org_admin_required');

    const res = await org.call('admin', 'updateMemberRole', {
      path: { userId: org.userIds.member },
      body: { role: 'ADMIN' },
    });
    expectOk(res);
    expect(res.body).toEqual({
      userId: org.userIds.member,
      imOpenId: 'm-role-member',
      displayName: 'm-role-member',
      avatarUrl: null,
      role: 'ADMIN',
      createdAt: seededAt,
    });
    expect(await listMembers(org)).toContainEqual(res.body);
    expect((await org.call('member', 'listMembers')).status).toBe(200);

    // An admin may step down; their open session is a member's from then on.
    expect(
      (await org.call('admin', 'updateMemberRole', { path: { userId: org.userIds.admin }, body: { role: 'MEMBER' } }))
        .status,
    ).toBe(200);
    expectError(await org.call('admin', 'listMembers'), 403, 'org_admin_required');
  });

  it('lets an OWNER grant the OWNER role, and one of two OWNERs demote the other', async () => {
    const org = await seedOrg(hub, 'm-role-owner');
    const promoted = await org.call('owner', 'updateMemberRole', {
      path: { userId: org.userIds.admin },
      body: { role: 'OWNER' },
    });
    expectOk(promoted);
    expect(promoted.body.role).toBe('OWNER');
    // With two OWNERs, one may demote the other.
    const demoted = await org.call('admin', 'updateMemberRole', {
      path: { userId: org.userIds.owner },
      body: { role: 'MEMBER' },
    });
    expectOk(demoted);
    expect(demoted.body.role).toBe('MEMBER');
    const roles = Object.fromEntries(
      (await okBody(org.call('admin', 'listMembers'))).members.map((m) => [m.userId, m.role]),
    );
    expect(roles).toEqual({
      [org.userIds.owner]: 'MEMBER',
      [org.userIds.admin]: 'OWNER',
      [org.userIds.member]: 'MEMBER',
    });
  });

  it('answers 409 last_owner when the last active OWNER would be demoted, and changes nothing', async () => {
    const org = await seedOrg(hub, 'm-role-last');
    const before = await listMembers(org);
    expectError(
      await org.call('owner', 'updateMemberRole', { path: { userId: org.userIds.owner }, body: { role: 'ADMIN' } }),
      409,
      'last_owner',
    );
    expect(await listMembers(org)).toEqual(before);
    expect(
      (await okBody(hub.call('getOrganization', { path: { orgSlug: 'm-role-last' }, cookie: org.cookies.owner })))
        .actorRole,
    ).toBe('OWNER');
    // Setting the OWNER role it already has is no demotion.
    expect(
      (await org.call('owner', 'updateMemberRole', { path: { userId: org.userIds.owner }, body: { role: 'OWNER' } }))
        .status,
    ).toBe(200);
  });

  it('never lets two concurrent self-demotions remove the last OWNER', async () => {
    const org = await seedOrg(hub, 'm-role-race');
    expect(
      (await org.call('owner', 'updateMemberRole', { path: { userId: org.userIds.admin }, body: { role: 'OWNER' } }))
        .status,
    ).toBe(200);
    for (let round = 0; round < 5; round++) {
      const results = await Promise.all(
        (['owner', 'admin'] as const).map((actor) =>
          org.call(actor, 'updateMemberRole', { path: { userId: org.userIds[actor] }, body: { role: 'ADMIN' } }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(errorBody(results.find((r) => r.status === 409)!).error.code).toBe('last_owner');
      const owners = (await okBody(org.call('owner', 'listMembers'))).members.filter((m) => m.role === 'OWNER');
      expect(owners).toHaveLength(1);
      // The remaining OWNER restores a second one for the next round.
      const remaining = owners[0]!.userId === org.userIds.owner ? 'owner' : 'admin';
      const other = remaining === 'owner' ? 'admin' : 'owner';
      expect(
        (
          await org.call(remaining, 'updateMemberRole', {
            path: { userId: org.userIds[other] },
            body: { role: 'OWNER' },
          })
        ).status,
      ).toBe(200);
    }
  });

  it('answers 404 member_not_found for unknown, revoked and other organizations’ users', async () => {
    const org = await seedOrg(hub, 'm-role-404');
    const gone = await addMember(org, { imOpenId: 'ou-role-gone', role: 'MEMBER' });
    expect((await org.call('owner', 'revokeMember', { path: { userId: gone.userId } })).status).toBe(200);
    const before = await listMembers(org);
    const foreign = (await userIdOf(hub, 'globex-owner'))!;
    for (const userId of ['no-such-user', gone.userId, foreign]) {
      expectError(
        await org.call('owner', 'updateMemberRole', { path: { userId }, body: { role: 'ADMIN' } }),
        404,
        'member_not_found',
      );
    }
    expect(await listMembers(org)).toEqual(before);
    expect(
      (await okBody(hub.call('getOrganization', { path: { orgSlug: 'globex' }, cookie: cookies.otherOrgOwner })))
        .actorRole,
    ).toBe('OWNER');
  });

  it('rejects an invalid body with 400 validation_failed and changes nothing', async () => {
    const org = await seedOrg(hub, 'm-role-invalid');
    const before = await listMembers(org);
    for (const body of [{}, { role: 'KING' }, { role: 'ADMIN', extra: 1 }, { role: null }]) {
      expectError(await org.api('owner', 'PATCH', `/members/${org.userIds.member}`, body), 400, 'validation_failed');
    }
    expect(await listMembers(org)).toEqual(before);
  });
});

describe('POST /members/{userId}/revoke', () => {
  it(
    'revokes, answers {revoked, userId, departure}, ' +
      'and the member’s open session loses access on the very next request',
    async () => {
      const org = await seedOrg(hub, 'm-revoke');
      // The member's access is resolved (and cached) before the revocation.
      expect(
        (await hub.call('getOrganization', { path: { orgSlug: 'm-revoke' }, cookie: org.cookies.member })).status,
      ).toBe(200);

      const res = await org.call('admin', 'revokeMember', { path: { userId: org.userIds.member } });
      expectOk(res);
      expect(res.body).toEqual({
        revoked: true,
        userId: org.userIds.member,
        unmanagedProjects: [],
        departure: { userId: org.userIds.member, stops: { apiTokens: [] }, stays: { webhooks: [], budgets: [] } },
      });

      expectError(
        await hub.call('getOrganization', { path: { orgSlug: 'm-revoke' }, cookie: org.cookies.member }),
        404,
        'org_not_found',
      );
      expectError(await org.call('member', 'getOrgSettings'), 404, 'org_not_found');
      // The session itself is still valid; it just no longer reaches the organization.
      const me = await hub.call('getMe', { cookie: org.cookies.member });
      expectOk(me);
      expect(me.body.organizations).toEqual([]);
      expect((await listMembers(org)).map((m) => m.userId)).not.toContain(org.userIds.member);

      expectError(
        await org.call('admin', 'revokeMember', { path: { userId: org.userIds.member } }),
        404,
        'member_not_found',
      );
    },
  );

  it('takes an admin’s rights away at once', async () => {
    const org = await seedOrg(hub, 'm-revoke-admin');
    expect((await org.call('admin', 'listMembers')).status).toBe(200);
    expect((await org.call('owner', 'revokeMember', { path: { userId: org.userIds.admin } })).status).toBe(200);
    expectError(await org.call('admin', 'listMembers'), 404, 'org_not_found');
    expectError(
      await org.call('admin', 'addMember', { body: { imOpenId: 'ou-sneaky', role: 'MEMBER' } }),
      404,
      'org_not_found',
    );
  });

  it('lets an OWNER revoke another OWNER', async () => {
    const org = await seedOrg(hub, 'm-revoke-owner');
    expect(
      (await org.call('owner', 'updateMemberRole', { path: { userId: org.userIds.member }, body: { role: 'OWNER' } }))
        .status,
    ).toBe(200);
    const res = await org.call('owner', 'revokeMember', { path: { userId: org.userIds.member } });
    expectOk(res);
    expect((await listMembers(org)).map((m) => m.userId).sort()).toEqual([org.userIds.admin, org.userIds.owner].sort());
  });

  it('answers 409 last_owner for the last active OWNER and changes nothing', async () => {
    const org = await seedOrg(hub, 'm-revoke-last');
    const before = await listMembers(org);
    expectError(await org.call('owner', 'revokeMember', { path: { userId: org.userIds.owner } }), 409, 'last_owner');
    expect(await listMembers(org)).toEqual(before);
    expect(
      (await okBody(hub.call('getOrganization', { path: { orgSlug: 'm-revoke-last' }, cookie: org.cookies.owner })))
        .actorRole,
    ).toBe('OWNER');
  });

  it('answers 404 member_not_found for unknown users and other organizations’ members', async () => {
    const org = await seedOrg(hub, 'm-revoke-404');
    const before = await listMembers(org);
    const foreign = (await userIdOf(hub, 'globex-owner'))!;
    for (const userId of ['no-such-user', foreign]) {
      expectError(await org.call('owner', 'revokeMember', { path: { userId } }), 404, 'member_not_found');
    }
    expect(await listMembers(org)).toEqual(before);
    expect(
      (await hub.call('getOrganization', { path: { orgSlug: 'globex' }, cookie: cookies.otherOrgOwner })).status,
    ).toBe(200);
  });

  it('ends the user’s team memberships in the organization, which a reactivation does not bring back', async () => {
    const org = await seedOrg(hub, 'm-revoke-teams');
    const team = await org.call('owner', 'createTeam', { body: { slug: 'core', name: 'Core' } });
    expectOk(team, 201);
    for (const userId of [org.userIds.member, org.userIds.admin]) {
      expect(
        (await org.call('owner', 'addTeamMember', { path: { teamId: team.body.id }, body: { userId } })).status,
      ).toBe(201);
    }
    expect((await org.call('owner', 'revokeMember', { path: { userId: org.userIds.member } })).status).toBe(200);

    const teamMembers = async () =>
      (await okBody(org.call('owner', 'listTeamMembers', { path: { teamId: team.body.id } }))).members.map(
        (m) => m.userId,
      );
    const memberCount = async () => (await okBody(org.call('owner', 'listTeams'))).teams[0]!.memberCount;
    expect(await teamMembers()).toEqual([org.userIds.admin]);
    expect(await memberCount()).toBe(1);
    expectError(
      await org.call('owner', 'revokeTeamMember', { path: { teamId: team.body.id, userId: org.userIds.member } }),
      404,
      'member_not_found',
    );

    await addMember(org, { imOpenId: 'm-revoke-teams-member', role: 'MEMBER' });
    expect(await teamMembers()).toEqual([org.userIds.admin]);
    expect(await memberCount()).toBe(1);
  });

  it('rejects a malformed user id with 400 validation_failed', async () => {
    const org = await seedOrg(hub, 'm-revoke-invalid');
    expectError(
      await org.call('owner', 'revokeMember', { path: { userId: 'x'.repeat(129) } }),
      400,
      'validation_failed',
    );
  });
});

describe('avatarUrl', () => {
  it('stores the https avatar of a new member for the member list; getMe never shows an organization’s', async () => {
    const org = await seedOrg(hub, 'avatars');
    const avatarUrl = 'https://cdn.example.com/avatars/ou-avatar-new.png';
    const member = await addMember(org, { imOpenId: 'ou-avatar-new', role: 'MEMBER', avatarUrl });
    expect(member.avatarUrl).toBe(avatarUrl);
    expect((await listMembers(org)).find((m) => m.imOpenId === 'ou-avatar-new')?.avatarUrl).toBe(avatarUrl);
    const me = await hub.call('getMe', { cookie: await hub.login('ou-avatar-new') });
    expectOk(me);
    // The avatar is the organization's view of its member; the person's own is their provider's.
    expect(me.body.user.avatarUrl).toBeNull();
    expect(me.body.user.displayName).toBe('ou-avatar-new');
    // Without one it stays null, as before.
    expect((await addMember(org, { imOpenId: 'ou-avatar-none', role: 'MEMBER' })).avatarUrl).toBeNull();
  });

  it("keeps each organization's avatar for an existing user to itself", async () => {
    const [a, b] = [await seedOrg(hub, 'avatars-a'), await seedOrg(hub, 'avatars-b')];
    await addMember(a, { imOpenId: 'ou-avatar-shared', role: 'MEMBER' });
    const first = 'https://cdn.example.com/first.png';
    expect((await addMember(b, { imOpenId: 'ou-avatar-shared', role: 'MEMBER', avatarUrl: first })).avatarUrl).toBe(
      first,
    );
    const c = await seedOrg(hub, 'avatars-c');
    const other = 'https://cdn.example.com/other.png';
    expect((await addMember(c, { imOpenId: 'ou-avatar-shared', role: 'MEMBER', avatarUrl: other })).avatarUrl).toBe(
      other,
    );
    const avatarIn = async (org: OrgFixture) =>
      (await listMembers(org)).find((m) => m.imOpenId === 'ou-avatar-shared')?.avatarUrl;
    expect([await avatarIn(a), await avatarIn(b), await avatarIn(c)]).toEqual([null, first, other]);
  });

  it('refuses anything but an absolute https URL without credentials with 400, creating no user', async () => {
    const org = await seedOrg(hub, 'avatars-bad');
    const bad = [
      'http://cdn.example.com/a.png',
      'javascript:alert(1)',
      'cdn.example.com/a.png',
      '',
      'https://user:secret@cdn.example.com/a.png',
      `https://cdn.example.com/${'a'.repeat(2100)}`,
    ];
    for (const avatarUrl of bad) {
      expectError(
        await org.api('owner', 'POST', '/members', { imOpenId: 'ou-avatar-bad', role: 'MEMBER', avatarUrl }),
        400,
        'validation_failed',
      );
    }
    expect(await userIdOf(hub, 'ou-avatar-bad')).toBeUndefined();
  });
});
