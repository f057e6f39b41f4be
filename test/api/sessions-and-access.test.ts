import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, MINUTE_MS } from '../../src/config/clock.js';
import { errorBody, expectError, okBody } from '../support/assertions.js';
import { type OrgFixture, seedOrg } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';

/**
 * The person's own sessions and name, an org admin signing a member out everywhere, the teams a
 * member sees of themselves, and access requests from asking to approval, denial, withdrawal
 * and expiry — all over HTTP on a real database.
 */

let hub: TestHub;
let org: OrgFixture;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) ' +
  'Version/18.1 Mobile/15E148 Safari/604.1';

/** A fresh member of the organization with `sessions` signed-in browsers. */
async function memberWithSessions(sessions: number) {
  const imOpenId = unique('ou-person');
  const added = await okBody(org.call('owner', 'addMember', { body: { imOpenId, role: 'MEMBER' } }));
  const cookies: string[] = [];
  for (let i = 0; i < sessions; i++) cookies.push(await hub.login(imOpenId));
  return { imOpenId, userId: added.userId, cookies };
}

const meOf = (cookie: string) => hub.call('getMe', { cookie });

/** Moves the clock on; the organization's own people sign in again, as their sessions went idle. */
async function advance(ms: number) {
  hub.clock.advance(ms);
  for (const actor of ['owner', 'admin', 'member'] as const) org.cookies[actor] = await hub.login(`lifecycle-${actor}`);
}
const auditEvents = async (action: string) =>
  (await okBody(org.call('owner', 'listAuditEvents', { query: { action } }))).events;

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'lifecycle');
});
afterAll(() => hub.stop());

describe('the person’s own sessions', () => {
  it('lists each live session with its device, address and times, the current one marked', async () => {
    const person = await memberWithSessions(2);
    const [laptop, phone] = person.cookies as [string, string];
    expect((await hub.call('getMe', { cookie: laptop, headers: { 'user-agent': FIREFOX } })).status).toBe(200);
    hub.clock.advance(5 * MINUTE_MS);
    const listed = await okBody(
      hub.call('listMySessions', { cookie: phone, headers: { 'user-agent': SAFARI_IPHONE } }),
    );
    expect(listed.sessions).toHaveLength(2);
    const [first, second] = listed.sessions;
    // Most recently seen first: the phone asking now, then the laptop five minutes ago.
    expect(first).toMatchObject({ device: 'Safari on iOS', address: '127.0.0.1', current: true });
    expect(second).toMatchObject({ device: 'Firefox on Linux', address: '127.0.0.1', current: false });
    expect(Date.parse(first!.lastSeenAt) - Date.parse(second!.lastSeenAt)).toBe(5 * MINUTE_MS);
    expect(second!.createdAt <= second!.lastSeenAt).toBe(true);
  });

  it('ends one other session at once; that browser is signed out, this one is not', async () => {
    const person = await memberWithSessions(2);
    const [mine, other] = person.cookies as [string, string];
    await okBody(meOf(other));
    const { sessions } = await okBody(hub.call('listMySessions', { cookie: mine }));
    const otherId = sessions.find((s) => !s.current)!.id;
    const ended = await hub.call('revokeMySession', { cookie: mine, path: { sessionId: otherId } });
    expect(ended.status, ended.text).toBe(204);
    expectError(await meOf(other), 401, 'unauthenticated');
    expect((await meOf(mine)).status).toBe(200);
    expectError(
      await hub.call('revokeMySession', { cookie: mine, path: { sessionId: otherId } }),
      404,
      'session_not_found',
    );
  });

  it('answers session_not_found for another person’s session, which goes on', async () => {
    const alice = await memberWithSessions(1);
    const bob = await memberWithSessions(1);
    const bobsId = (await okBody(hub.call('listMySessions', { cookie: bob.cookies[0] }))).sessions[0]!.id;
    expectError(
      await hub.call('revokeMySession', { cookie: alice.cookies[0], path: { sessionId: bobsId } }),
      404,
      'session_not_found',
    );
    expect((await meOf(bob.cookies[0]!)).status).toBe(200);
  });

  it('ending the current session signs out here and clears the cookie', async () => {
    const person = await memberWithSessions(1);
    const cookie = person.cookies[0]!;
    const id = (await okBody(hub.call('listMySessions', { cookie }))).sessions[0]!.id;
    const ended = await hub.call('revokeMySession', { cookie, path: { sessionId: id } });
    expect(ended.status).toBe(204);
    expect(ended.headers.get('set-cookie')).toMatch(/^hub_session=;/);
    expectError(await meOf(cookie), 401, 'unauthenticated');
  });

  it('ends every other session and says how many', async () => {
    const person = await memberWithSessions(3);
    const [mine, ...others] = person.cookies as [string, ...string[]];
    expect(await okBody(hub.call('revokeOtherSessions', { cookie: mine }))).toEqual({ ended: 2 });
    for (const cookie of others) expectError(await meOf(cookie), 401, 'unauthenticated');
    const left = await okBody(hub.call('listMySessions', { cookie: mine }));
    expect(left.sessions.map((s) => s.current)).toEqual([true]);
    expect(await okBody(hub.call('revokeOtherSessions', { cookie: mine }))).toEqual({ ended: 0 });
  });

  it('leaves out sessions past their idle end', async () => {
    const person = await memberWithSessions(2);
    await advance(3 * DAY_MS - MINUTE_MS);
    await okBody(meOf(person.cookies[0]!));
    await advance(2 * MINUTE_MS);
    const listed = await okBody(hub.call('listMySessions', { cookie: person.cookies[0] }));
    expect(listed.sessions).toHaveLength(1);
  });
});

describe('signing a member out everywhere', () => {
  it('ends all their sessions, keeps their membership, and is audited', async () => {
    const person = await memberWithSessions(2);
    const answer = await okBody(org.call('admin', 'signOutMember', { path: { userId: person.userId } }));
    expect(answer).toEqual({ ended: 2 });
    for (const cookie of person.cookies) expectError(await meOf(cookie), 401, 'unauthenticated');
    // Still a member: a new sign-in opens the organization again.
    const again = await hub.login(person.imOpenId);
    expect((await okBody(meOf(again))).organizations.map((o) => o.slug)).toContain(org.slug);
    const [event] = await auditEvents('signOutMember');
    expect(event).toMatchObject({
      actor: { type: 'user', id: org.userIds.admin },
      target: { type: 'member', id: person.userId, label: person.imOpenId },
      summary: `lifecycle-admin signed ${person.imOpenId} out everywhere`,
    });
  });

  it('signs an OWNER out only at an OWNER’s hand, and answers member_not_found for a stranger', async () => {
    expectError(
      await org.call('admin', 'signOutMember', { path: { userId: org.userIds.owner } }),
      403,
      'owner_required',
    );
    expect((await meOf(org.cookies.owner)).status).toBe(200);
    expectError(
      await org.call('admin', 'signOutMember', { path: { userId: 'no-such-user' } }),
      404,
      'member_not_found',
    );
  });
});

describe('the name a person gives themselves', () => {
  it('is shown on /me and in the organization’s lists in place of the name it gave', async () => {
    const person = await memberWithSessions(1);
    const cookie = person.cookies[0]!;
    expect((await okBody(meOf(cookie))).user).toMatchObject({
      displayName: person.imOpenId,
      displayNameEditable: true,
    });
    const updated = await okBody(hub.call('updateMe', { cookie, body: { displayName: '  Dana Reyes ' } }));
    expect(updated.user).toMatchObject({ displayName: 'Dana Reyes', displayNameEditable: true });
    expect((await okBody(meOf(cookie))).user.displayName).toBe('Dana Reyes');
    const members = await okBody(org.call('owner', 'listMembers'));
    expect(members.members.find((m) => m.userId === person.userId)?.displayName).toBe('Dana Reyes');
  });

  it('is refused once an identity provider gives the name, and a blank name is refused', async () => {
    const person = await memberWithSessions(1);
    const cookie = person.cookies[0]!;
    expectError(await hub.call('updateMe', { cookie, body: { displayName: '   ' } }), 400, 'validation_failed');
    // A sign-in through a provider that gave a name (test/identity covers the sign-in itself).
    await hub.services.db('users').where({ id: person.userId }).update({
      display_name: 'Provider Name',
      display_name_source: 'provider',
      profile_from_provider_at: hub.clock.now().toISOString(),
    });
    await hub.services.sessions.invalidateCache();
    expect((await okBody(meOf(cookie))).user).toMatchObject({
      displayName: 'Provider Name',
      displayNameEditable: false,
    });
    expectError(
      await hub.call('updateMe', { cookie, body: { displayName: 'Mine' } }),
      409,
      'display_name_from_provider',
    );
    expect((await okBody(meOf(cookie))).user.displayName).toBe('Provider Name');
  });
});

describe('a member’s own place', () => {
  it('lists the active teams a MEMBER is in on /me, and no archived one', async () => {
    const kept = await okBody(org.call('owner', 'createTeam', { body: { slug: unique('crew'), name: 'Crew' } }));
    const gone = await okBody(org.call('owner', 'createTeam', { body: { slug: unique('old'), name: 'Old' } }));
    for (const team of [kept, gone])
      await okBody(
        org.call('owner', 'addTeamMember', { path: { teamId: team.id }, body: { userId: org.userIds.member } }),
      );
    await okBody(org.call('owner', 'archiveTeam', { path: { teamId: gone.id } }));
    const me = await okBody(meOf(org.cookies.member));
    const teams = me.organizations.find((o) => o.slug === org.slug)!.teams;
    expect(teams).toContainEqual({ id: kept.id, slug: kept.slug, name: 'Crew' });
    expect(teams.map((t) => t.id)).not.toContain(gone.id);
  });

  it('offers the teams to a project’s MANAGE holder, and none to an overseeing org admin', async () => {
    await okBody(org.call('owner', 'updateOrgSettings', { body: { membersCanCreateProjects: true } }));
    const project = await okBody(org.call('member', 'createProject', { body: { name: unique('Picker') } }));
    const team = await okBody(org.call('owner', 'createTeam', { body: { slug: unique('readers'), name: 'Readers' } }));
    const managed = await okBody(org.call('member', 'listProjectTeamAccess', { path: { projectId: project.id } }));
    expect(managed.teamChoices).toContainEqual({ id: team.id, slug: team.slug, name: 'Readers' });
    // The admin oversees read-only: no grant to give, so nothing to pick.
    const overseen = await okBody(org.call('admin', 'listProjectTeamAccess', { path: { projectId: project.id } }));
    expect(overseen.teamChoices).toEqual([]);
  });
});

describe('access requests', () => {
  /** A project the member created (so holds MANAGE on) and a fresh member with no grant on it. */
  async function projectAndAsker() {
    await okBody(org.call('owner', 'updateOrgSettings', { body: { membersCanCreateProjects: true } }));
    const project = await okBody(org.call('member', 'createProject', { body: { name: unique('Apollo') } }));
    const asker = await memberWithSessions(1);
    const as = (cookie: string) => ({
      list: () => hub.orgCall(org.slug, cookie, 'listAccessRequests', { path: { projectId: project.id } }),
      create: (level: 'READ' | 'EDIT' | 'MANAGE', reason = 'I review the releases') =>
        hub.orgCall(org.slug, cookie, 'createAccessRequest', {
          path: { projectId: project.id },
          body: { level, reason },
        }),
      step: (step: 'approveAccessRequest' | 'denyAccessRequest' | 'withdrawAccessRequest', requestId: string) =>
        hub.orgCall(org.slug, cookie, step, { path: { projectId: project.id, requestId } }),
    });
    return { project, asker, askerCalls: as(asker.cookies[0]!), managerCalls: as(org.cookies.member), as };
  }

  it('names the approvers to someone refused, takes the request, and the approval writes the grant', async () => {
    const { project, asker, askerCalls, managerCalls } = await projectAndAsker();
    const open = () => hub.orgCall(org.slug, asker.cookies[0], 'getProject', { path: { projectId: project.id } });
    expectError(await open(), 403, 'project_access_denied');
    const before = await okBody(askerCalls.list());
    expect(before).toEqual({
      requests: [],
      approvers: [{ userId: org.userIds.member, displayName: 'lifecycle-member', imOpenId: 'lifecycle-member' }],
      approversAre: 'manageHolders',
      canDecide: false,
    });
    const created = await okBody(askerCalls.create('EDIT'), 201);
    expect(created).toMatchObject({
      organizationSlug: org.slug,
      projectId: project.id,
      projectName: project.name,
      requester: { userId: asker.userId, imOpenId: asker.imOpenId },
      level: 'EDIT',
      reason: 'I review the releases',
      status: 'pending',
      decidedAt: null,
      decidedBy: null,
      grantedLevel: null,
    });
    expect(Date.parse(created.expiresAt) - Date.parse(created.createdAt)).toBe(14 * DAY_MS);
    expectError(await askerCalls.create('READ'), 409, 'access_request_pending');
    expect((await okBody(askerCalls.list())).requests.map((r) => r.id)).toEqual([created.id]);

    const queue = await okBody(managerCalls.list());
    expect(queue.canDecide).toBe(true);
    expect(queue.requests.map((r) => r.id)).toEqual([created.id]);

    const approved = await okBody(
      hub.orgCall(org.slug, org.cookies.member, 'approveAccessRequest', {
        path: { projectId: project.id, requestId: created.id },
        body: { level: 'READ' },
      }),
    );
    expect(approved).toMatchObject({
      status: 'approved',
      grantedLevel: 'READ',
      decidedBy: { userId: org.userIds.member },
    });
    expect((await okBody(open())).id).toBe(project.id);
    expect((await okBody(managerCalls.list())).requests).toEqual([]);
    expectError(await managerCalls.step('denyAccessRequest', created.id), 409, 'access_request_not_pending');

    const [event] = await auditEvents('approveAccessRequest');
    expect(event).toMatchObject({
      target: { type: 'access_request', id: created.id, label: project.name },
      summary: `lifecycle-member gave ${asker.imOpenId} READ on ${project.name}, as they asked`,
      changes: { before: { status: 'pending' }, after: { status: 'approved', grantedLevel: 'READ' } },
    });
    const mine = await okBody(hub.call('listMyAccessRequests', { cookie: asker.cookies[0] }));
    expect(mine.requests).toEqual([approved]);
  });

  it('is decided by MANAGE holders only while there are some; then by the org admins', async () => {
    const { askerCalls, as } = await projectAndAsker();
    const request = await okBody(askerCalls.create('READ'), 201);
    for (const cookie of [org.cookies.admin, org.cookies.owner, (await memberWithSessions(1)).cookies[0]!])
      expectError(await as(cookie).step('approveAccessRequest', request.id), 403, 'project_manage_required');
    // The only MANAGE holder leaves: the org admins answer for the project now.
    await okBody(org.call('owner', 'revokeMember', { path: { userId: org.userIds.member } }));
    try {
      const now = await okBody(as(org.cookies.admin).list());
      expect(now).toMatchObject({ approversAre: 'orgAdmins', canDecide: true });
      expect(now.approvers.map((a) => a.userId).sort()).toEqual([org.userIds.admin, org.userIds.owner].sort());
      expect((await okBody(as(org.cookies.admin).step('denyAccessRequest', request.id))).status).toBe('denied');
    } finally {
      await okBody(org.call('owner', 'addMember', { body: { imOpenId: 'lifecycle-member', role: 'MEMBER' } }), 201);
    }
  });

  it('is withdrawn by its requester only; anyone else is told it does not exist', async () => {
    const { askerCalls, managerCalls } = await projectAndAsker();
    const request = await okBody(askerCalls.create('MANAGE'), 201);
    expectError(await managerCalls.step('withdrawAccessRequest', request.id), 404, 'access_request_not_found');
    const withdrawn = await okBody(askerCalls.step('withdrawAccessRequest', request.id));
    expect(withdrawn).toMatchObject({ status: 'withdrawn', decidedBy: null });
    expectError(await managerCalls.step('approveAccessRequest', request.id), 409, 'access_request_not_pending');
    expect((await okBody(askerCalls.create('READ'), 201)).status).toBe('pending');
  });

  it('expires after 14 days, cannot be approved then, and may be asked again', async () => {
    const { askerCalls, as, asker } = await projectAndAsker();
    const request = await okBody(askerCalls.create('READ'), 201);
    await advance(14 * DAY_MS);
    const manager = as(org.cookies.member);
    expect((await okBody(manager.list())).requests).toEqual([]);
    expectError(await manager.step('approveAccessRequest', request.id), 409, 'access_request_not_pending');
    const askerAgain = as(await hub.login(asker.imOpenId));
    expect((await okBody(askerAgain.list())).requests.map((r) => [r.id, r.status])).toEqual([[request.id, 'expired']]);
    expect((await okBody(askerAgain.create('READ', 'Still needed'), 201)).status).toBe('pending');
  });

  it('refuses asking for what one already holds, and a project that is not there', async () => {
    const { managerCalls } = await projectAndAsker();
    expectError(await managerCalls.create('EDIT'), 409, 'access_already_held');
    const missing = await org.call('member', 'createAccessRequest', {
      path: { projectId: 'no-such-project' },
      body: { level: 'READ', reason: 'x' },
    });
    expect(errorBody(missing).error.code).toBe('project_not_found');
  });

  it('tells webhooks of each step', async () => {
    const webhook = await okBody(
      org.call('owner', 'createWebhook', { body: { url: 'https://93.184.216.34/requests', events: ['*'] } }),
      201,
    );
    const { askerCalls, managerCalls } = await projectAndAsker();
    const denied = await okBody(askerCalls.create('READ'), 201);
    await okBody(managerCalls.step('denyAccessRequest', denied.id));
    const approved = await okBody(askerCalls.create('READ'), 201);
    await okBody(managerCalls.step('approveAccessRequest', approved.id));
    const withdrawn = await okBody(askerCalls.create('MANAGE'), 201);
    await okBody(askerCalls.step('withdrawAccessRequest', withdrawn.id));
    const events = (await hub.services.db('webhook_deliveries').where({ webhook_id: webhook.id }).select('event')).map(
      (row) => row.event as string,
    );
    for (const step of ['createAccessRequest', 'denyAccessRequest', 'approveAccessRequest', 'withdrawAccessRequest'])
      expect(events, step).toContain(step);
    await okBody(org.call('owner', 'deleteWebhook', { path: { webhookId: webhook.id } }), 204);
  });
});
