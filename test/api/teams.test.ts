import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedActors, type ActorName } from '../support/actors.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
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

async function listTeams(org: OrgFixture) {
  const res = await org.call('owner', 'listTeams');
  expectOk(res);
  return res.body.teams;
}

async function createTeam(org: OrgFixture, body: RequestBody<'createTeam'>) {
  const res = await org.call('owner', 'createTeam', { body });
  expectOk(res, 201);
  return res.body;
}

async function teamMembers(org: OrgFixture, teamId: string) {
  const res = await org.call('owner', 'listTeamMembers', { path: { teamId } });
  expectOk(res);
  return res.body.members;
}

async function addToTeam(org: OrgFixture, teamId: string, body: RequestBody<'addTeamMember'>) {
  const res = await org.call('owner', 'addTeamMember', { path: { teamId }, body });
  expectOk(res, 201);
  return res.body;
}

describe('POST /teams', () => {
  it('creates a team and answers 201 with the complete row', async () => {
    const org = await seedOrg(hub, 't-create');
    tick();
    const at = now();
    const res = await org.call('admin', 'createTeam', {
      body: { slug: 'core-1', name: 'Core', description: 'The core team' },
    });
    expectOk(res, 201);
    expect(res.body).toEqual({
      id: expect.any(String),
      slug: 'core-1',
      name: 'Core',
      description: 'The core team',
      memberCount: 0,
      createdAt: at,
    });
    expect(await listTeams(org)).toEqual([res.body]);

    const plain = await org.call('owner', 'createTeam', { body: { slug: 'plain', name: '  Plain  ' } });
    expect(plain.body).toEqual({
      id: expect.any(String),
      slug: 'plain',
      name: 'Plain',
      description: null,
      memberCount: 0,
      createdAt: at,
    });
  });

  it('answers 409 slug_taken for a slug of an active team, and changes nothing', async () => {
    const org = await seedOrg(hub, 't-slug');
    await createTeam(org, { slug: 'core', name: 'Core' });
    const before = await listTeams(org);
    expectError(
      await org.call('admin', 'createTeam', { body: { slug: 'core', name: 'Another core' } }),
      409,
      'slug_taken',
    );
    expect(await listTeams(org)).toEqual(before);
  });

  it('takes slugs per organization: another organization’s slug is free', async () => {
    const org = await seedOrg(hub, 't-slug-other');
    await createTeam(org, { slug: 'shared', name: 'Ours' });
    const theirs = await hub.call('createTeam', {
      path: { orgSlug: 'globex' },
      cookie: cookies.otherOrgOwner,
      body: { slug: 'shared', name: 'Theirs' },
    });
    expectOk(theirs, 201);
    expect((await listTeams(org)).map((t) => t.name)).toEqual(['Ours']);
  });

  it('frees the slug of an archived team', async () => {
    const org = await seedOrg(hub, 't-slug-reuse');
    const first = await createTeam(org, { slug: 'core', name: 'Old core' });
    expect((await org.call('owner', 'archiveTeam', { path: { teamId: first.id } })).status).toBe(200);
    const second = await org.call('owner', 'createTeam', { body: { slug: 'core', name: 'New core' } });
    expectOk(second, 201);
    expect(second.body.id).not.toBe(first.id);
    expect(await listTeams(org)).toEqual([second.body]);
    // ...and the reused slug is taken again.
    expectError(await org.call('owner', 'createTeam', { body: { slug: 'core', name: 'Third' } }), 409, 'slug_taken');
  });

  it('lets only one of two concurrent creations with one slug succeed', async () => {
    const org = await seedOrg(hub, 't-slug-race');
    const results = await Promise.all([
      org.call('owner', 'createTeam', { body: { slug: 'race', name: 'A' } }),
      org.call('admin', 'createTeam', { body: { slug: 'race', name: 'B' } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(errorBody(results.find((r) => r.status === 409)!).error.code).toBe('slug_taken');
    expect(await listTeams(org)).toHaveLength(1);
  });

  it('rejects invalid bodies with 400 validation_failed and creates nothing', async () => {
    const org = await seedOrg(hub, 't-create-invalid');
    const bodies = [
      { slug: 'Core', name: 'Upper case' },
      { slug: '-core', name: 'Leading dash' },
      { slug: 'co re', name: 'Space' },
      { slug: 'a'.repeat(64), name: 'Too long' },
      { slug: '', name: 'Empty' },
      { name: 'No slug' },
      { slug: 'no-name' },
      { slug: 'blank', name: '   ' },
      { slug: 'empty-name', name: '' },
      { slug: 'long-text', name: 'Long', description: 'd'.repeat(2001) },
      { slug: 'extra', name: 'Extra', memberCount: 3 },
    ];
    for (const body of bodies) expectError(await org.api('owner', 'POST', '/teams', body), 400, 'validation_failed');
    expect(await listTeams(org)).toEqual([]);
    // The longest valid slug is 63 characters.
    expect(
      (await org.call('owner', 'createTeam', { body: { slug: `a${'-'.repeat(62)}`, name: 'Longest' } })).status,
    ).toBe(201);
  });
});

describe('GET /teams', () => {
  it('lists active teams by name (case-insensitively) with live member counts', async () => {
    const org = await seedOrg(hub, 't-list');
    const beta = await createTeam(org, { slug: 'beta', name: 'beta' });
    const alpha = await createTeam(org, { slug: 'alpha', name: 'Alpha', description: 'First' });
    const gamma = await createTeam(org, { slug: 'gamma', name: 'Gamma' });
    const archived = await createTeam(org, { slug: 'archived', name: 'Aardvark' });
    expect((await org.call('owner', 'archiveTeam', { path: { teamId: archived.id } })).status).toBe(200);

    for (const userId of [org.userIds.owner, org.userIds.admin, org.userIds.member])
      await addToTeam(org, alpha.id, { userId });
    await addToTeam(org, beta.id, { imOpenId: 't-list-member' });

    const counts = async () => Object.fromEntries((await listTeams(org)).map((t) => [t.slug, t.memberCount]));
    expect(await listTeams(org)).toEqual([
      { ...alpha, description: 'First', memberCount: 3 },
      { ...beta, description: null, memberCount: 1 },
      { ...gamma, description: null, memberCount: 0 },
    ]);

    // Leaving a team, and leaving the organization, both count at once.
    expect(
      (await org.call('owner', 'revokeTeamMember', { path: { teamId: alpha.id, userId: org.userIds.admin } })).status,
    ).toBe(200);
    expect(await counts()).toEqual({ alpha: 2, beta: 1, gamma: 0 });
    expect((await org.call('owner', 'revokeMember', { path: { userId: org.userIds.member } })).status).toBe(200);
    expect(await counts()).toEqual({ alpha: 1, beta: 0, gamma: 0 });
  });

  it('never shows another organization’s teams', async () => {
    const org = await seedOrg(hub, 't-list-own');
    await createTeam(org, { slug: 'mine', name: 'Mine' });
    const globex = await hub.call('listTeams', { path: { orgSlug: 'globex' }, cookie: cookies.otherOrgOwner });
    expectOk(globex);
    expect(globex.body.teams.map((t: { slug: string }) => t.slug)).not.toContain('mine');
  });
});

describe('PATCH /teams/{teamId}', () => {
  it('changes the name and description, keeps what is left out, and answers with the complete row', async () => {
    const org = await seedOrg(hub, 't-update');
    const team = await createTeam(org, { slug: 'core', name: 'Core', description: 'Old' });
    await addToTeam(org, team.id, { userId: org.userIds.member });

    const renamed = await org.call('admin', 'updateTeam', { path: { teamId: team.id }, body: { name: 'Kernel' } });
    expectOk(renamed);
    expect(renamed.body).toEqual({ ...team, name: 'Kernel', description: 'Old', memberCount: 1 });

    const described = await org.call('admin', 'updateTeam', {
      path: { teamId: team.id },
      body: { description: 'New' },
    });
    expect(described.body).toEqual({ ...team, name: 'Kernel', description: 'New', memberCount: 1 });

    const cleared = await org.call('admin', 'updateTeam', { path: { teamId: team.id }, body: { description: null } });
    expect(cleared.body).toEqual({ ...team, name: 'Kernel', description: null, memberCount: 1 });

    const unchanged = await org.call('admin', 'updateTeam', { path: { teamId: team.id }, body: {} });
    expectOk(unchanged);
    expect(unchanged.body).toEqual(cleared.body);
    expect(await listTeams(org)).toEqual([cleared.body]);
  });

  it('answers 404 team_not_found for unknown, archived and other organizations’ teams', async () => {
    const org = await seedOrg(hub, 't-update-404');
    const archived = await createTeam(org, { slug: 'old', name: 'Old' });
    expect((await org.call('owner', 'archiveTeam', { path: { teamId: archived.id } })).status).toBe(200);
    const foreign = await hub.call('createTeam', {
      path: { orgSlug: 'globex' },
      cookie: cookies.otherOrgOwner,
      body: { slug: 'foreign-upd', name: 'Foreign' },
    });
    expectOk(foreign, 201);
    for (const teamId of ['no-such-team', archived.id, foreign.body.id]) {
      expectError(
        await org.call('owner', 'updateTeam', { path: { teamId }, body: { name: 'Taken over' } }),
        404,
        'team_not_found',
      );
    }
    const globexTeams = (
      await okBody(hub.call('listTeams', { path: { orgSlug: 'globex' }, cookie: cookies.otherOrgOwner }))
    ).teams;
    expect(globexTeams).toContainEqual(foreign.body);
  });

  it('rejects invalid bodies with 400 validation_failed and changes nothing', async () => {
    const org = await seedOrg(hub, 't-update-invalid');
    const team = await createTeam(org, { slug: 'core', name: 'Core' });
    const before = await listTeams(org);
    for (const body of [
      { name: '' },
      { name: '   ' },
      { name: null },
      { slug: 'renamed' },
      { description: 'd'.repeat(2001) },
    ]) {
      expectError(await org.api('owner', 'PATCH', `/teams/${team.id}`, body), 400, 'validation_failed');
    }
    expect(await listTeams(org)).toEqual(before);
  });
});

describe('POST /teams/{teamId}/archive', () => {
  it('archives, answers {archived, teamId}, and the team then answers 404 everywhere', async () => {
    const org = await seedOrg(hub, 't-archive');
    const team = await createTeam(org, { slug: 'core', name: 'Core' });
    await addToTeam(org, team.id, { userId: org.userIds.member });

    const res = await org.call('admin', 'archiveTeam', { path: { teamId: team.id } });
    expectOk(res);
    expect(res.body).toEqual({ archived: true, teamId: team.id });
    expect(await listTeams(org)).toEqual([]);

    expectError(await org.call('admin', 'archiveTeam', { path: { teamId: team.id } }), 404, 'team_not_found');
    expectError(
      await org.call('admin', 'updateTeam', { path: { teamId: team.id }, body: { name: 'Back' } }),
      404,
      'team_not_found',
    );
    expectError(await org.call('admin', 'listTeamMembers', { path: { teamId: team.id } }), 404, 'team_not_found');
    expectError(
      await org.call('admin', 'addTeamMember', { path: { teamId: team.id }, body: { userId: org.userIds.admin } }),
      404,
      'team_not_found',
    );
    expectError(
      await org.call('admin', 'revokeTeamMember', { path: { teamId: team.id, userId: org.userIds.member } }),
      404,
      'team_not_found',
    );
  });

  it('answers 404 team_not_found for another organization’s team and leaves it alone', async () => {
    const org = await seedOrg(hub, 't-archive-404');
    const foreign = await hub.call('createTeam', {
      path: { orgSlug: 'globex' },
      cookie: cookies.otherOrgOwner,
      body: { slug: 'foreign-arch', name: 'Foreign' },
    });
    expectOk(foreign, 201);
    for (const teamId of [foreign.body.id, 'no-such-team']) {
      expectError(await org.call('owner', 'archiveTeam', { path: { teamId } }), 404, 'team_not_found');
    }
    const globexTeams = (
      await okBody(hub.call('listTeams', { path: { orgSlug: 'globex' }, cookie: cookies.otherOrgOwner }))
    ).teams;
    expect(globexTeams).toContainEqual(foreign.body);
  });
});

describe('team members', () => {
  it('adds members by userId or imOpenId and lists them as complete objects by display name', async () => {
    const org = await seedOrg(hub, 't-members');
    const team = await createTeam(org, { slug: 'core', name: 'Core' });
    const zed = await org.call('owner', 'addMember', {
      body: { imOpenId: 'ou-zed', displayName: 'anna', role: 'MEMBER' },
    });
    expectOk(zed, 201);

    tick();
    const firstAt = now();
    const byId = await org.call('admin', 'addTeamMember', {
      path: { teamId: team.id },
      body: { userId: org.userIds.owner },
    });
    expectOk(byId, 201);
    expect(byId.body).toEqual({
      userId: org.userIds.owner,
      imOpenId: 't-members-owner',
      displayName: 'Owner of t-members',
      createdAt: firstAt,
    });

    tick();
    const secondAt = now();
    const byOpenId = await org.call('admin', 'addTeamMember', {
      path: { teamId: team.id },
      body: { imOpenId: 'ou-zed' },
    });
    expectOk(byOpenId, 201);
    expect(byOpenId.body).toEqual({
      userId: zed.body.userId,
      imOpenId: 'ou-zed',
      displayName: 'anna',
      createdAt: secondAt,
    });
    await addToTeam(org, team.id, { imOpenId: 't-members-member' });

    const listed = await org.call('admin', 'listTeamMembers', { path: { teamId: team.id } });
    expectOk(listed);
    expect(listed.body).toEqual({
      members: [
        byOpenId.body,
        byId.body,
        {
          userId: org.userIds.member,
          imOpenId: 't-members-member',
          displayName: 't-members-member',
          createdAt: secondAt,
        },
      ],
      nextCursor: null,
    });
  });

  it('requires exactly one of userId and imOpenId', async () => {
    const org = await seedOrg(hub, 't-members-one');
    const team = await createTeam(org, { slug: 'core', name: 'Core' });
    const bodies = [
      {},
      { userId: org.userIds.member, imOpenId: 't-members-one-member' },
      { userId: '' },
      { imOpenId: 'x', role: 'MEMBER' },
    ];
    for (const body of bodies) {
      expectError(
        await org.call('owner', 'addTeamMember', { path: { teamId: team.id }, body }),
        400,
        'validation_failed',
      );
    }
    expect(await teamMembers(org, team.id)).toEqual([]);
  });

  it(
    'answers 404 user_not_found for an unknown user and member_not_found for a non-member, ' + 'adding nobody',
    async () => {
      const org = await seedOrg(hub, 't-members-404');
      const team = await createTeam(org, { slug: 'core', name: 'Core' });
      const gone = await org.call('owner', 'addMember', { body: { imOpenId: 'ou-gone', role: 'MEMBER' } });
      expectOk(gone, 201);
      expect((await org.call('owner', 'revokeMember', { path: { userId: gone.body.userId } })).status).toBe(200);

      expectError(
        await org.call('owner', 'addTeamMember', { path: { teamId: team.id }, body: { userId: 'no-such-user' } }),
        404,
        'user_not_found',
      );
      expectError(
        await org.call('owner', 'addTeamMember', { path: { teamId: team.id }, body: { imOpenId: 'ou-nobody' } }),
        404,
        'user_not_found',
      );
      expectError(
        await org.call('owner', 'addTeamMember', { path: { teamId: team.id }, body: { imOpenId: 'globex-owner' } }),
        404,
        'member_not_found',
      );
      expectError(
        await org.call('owner', 'addTeamMember', { path: { teamId: team.id }, body: { userId: gone.body.userId } }),
        404,
        'member_not_found',
      );
      expect(await teamMembers(org, team.id)).toEqual([]);
      expect((await listTeams(org))[0]!.memberCount).toBe(0);
    },
  );

  it('answers 409 already_team_member for an active team member, and changes nothing', async () => {
    const org = await seedOrg(hub, 't-members-dup');
    const team = await createTeam(org, { slug: 'core', name: 'Core' });
    await addToTeam(org, team.id, { userId: org.userIds.member });
    const before = await teamMembers(org, team.id);
    expectError(
      await org.call('owner', 'addTeamMember', {
        path: { teamId: team.id },
        body: { imOpenId: 't-members-dup-member' },
      }),
      409,
      'already_team_member',
    );
    expect(await teamMembers(org, team.id)).toEqual(before);
  });

  it('lets only one of two concurrent additions of one user succeed', async () => {
    const org = await seedOrg(hub, 't-members-race');
    const team = await createTeam(org, { slug: 'core', name: 'Core' });
    const body = { userId: org.userIds.member };
    const results = await Promise.all([
      org.call('owner', 'addTeamMember', { path: { teamId: team.id }, body }),
      org.call('admin', 'addTeamMember', { path: { teamId: team.id }, body }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(errorBody(results.find((r) => r.status === 409)!).error.code).toBe('already_team_member');
    expect(await teamMembers(org, team.id)).toHaveLength(1);
  });

  it('removes a member from a team, answers {revoked, teamId, userId}, and allows adding them again', async () => {
    const org = await seedOrg(hub, 't-members-revoke');
    const team = await createTeam(org, { slug: 'core', name: 'Core' });
    await addToTeam(org, team.id, { userId: org.userIds.member });
    await addToTeam(org, team.id, { userId: org.userIds.admin });

    const res = await org.call('admin', 'revokeTeamMember', { path: { teamId: team.id, userId: org.userIds.member } });
    expectOk(res);
    expect(res.body).toEqual({ revoked: true, teamId: team.id, userId: org.userIds.member });
    expect((await teamMembers(org, team.id)).map((m) => m.userId)).toEqual([org.userIds.admin]);
    // Still a member of the organization.
    expect(
      (await hub.call('getOrganization', { path: { orgSlug: 't-members-revoke' }, cookie: org.cookies.member })).status,
    ).toBe(200);

    expectError(
      await org.call('admin', 'revokeTeamMember', { path: { teamId: team.id, userId: org.userIds.member } }),
      404,
      'member_not_found',
    );
    expectError(
      await org.call('admin', 'revokeTeamMember', { path: { teamId: team.id, userId: org.userIds.owner } }),
      404,
      'member_not_found',
    );
    expectError(
      await org.call('admin', 'revokeTeamMember', { path: { teamId: team.id, userId: 'no-such-user' } }),
      404,
      'member_not_found',
    );
    expect((await teamMembers(org, team.id)).map((m) => m.userId)).toEqual([org.userIds.admin]);

    tick();
    const again = await addToTeam(org, team.id, { userId: org.userIds.member });
    expect(again.createdAt).toBe(now());
  });
});
