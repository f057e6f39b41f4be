import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/config/clock.js';
import { errorBody, expectError, expectOk, okBody } from '../support/assertions.js';
import type { RequestBody } from '../support/api-client.js';
import { seedOrg, type OrgActor, type OrgFixture } from '../support/org-fixture.js';
import { ownDomain } from '../support/owned-domain.js';
import type { TestOpenIdProvider } from '../support/openid-provider.js';
import { hubWithOpenIdProvider, signInThrough } from '../support/sign-in-flow.js';
import { TestBrowser } from '../support/test-browser.js';
import { TEST_ORIGIN, type TestHub } from '../support/test-hub.js';

let hub: TestHub;
let idp: TestOpenIdProvider;
let counter = 0;

beforeAll(async () => {
  // `corp` vouches for example.com addresses (its --email-domains); `plain` for none.
  ({ hub, idp } = await hubWithOpenIdProvider(['corp', 'plain'], { corp: 'example.com' }));
});
afterAll(async () => {
  await idp?.stop();
  await hub?.stop();
});

const unique = (prefix: string) => `${prefix}-${++counter}`;
const freshOrg = () => seedOrg(hub, unique('inv'));

/** Someone with a session and no membership: who opens an invitation link. */
async function person(): Promise<{ id: string; cookie: string }> {
  const imOpenId = unique('ou-invitee');
  const { db, users, clock } = hub.services;
  const user = await users.ensure(db, { imOpenId }, clock.now());
  return { id: user.id, cookie: await hub.login(imOpenId) };
}

/**
 * Someone who signs in with an email address; their session cookie. Verified: through `corp`,
 * which vouches for it; else through `plain` with the address unverified.
 */
async function signedInWithEmail(email: string, verified: boolean): Promise<string> {
  const sub = unique('sub');
  idp.addAccount(sub, { name: `Person ${sub}`, email, email_verified: verified });
  const browser = new TestBrowser({ [TEST_ORIGIN]: hub.url });
  const answer = await signInThrough(browser, verified ? 'corp' : 'plain', sub);
  if (answer.status !== 303) throw new Error(`sign-in answered ${answer.status}`);
  return `hub_session=${browser.cookie(TEST_ORIGIN, 'hub_session')}`;
}

/** Invites; an address's domain is made the organization's first, as only a verified domain may be invited. */
async function invite(org: OrgFixture, body: RequestBody<'createInvitation'>, actor: OrgActor = 'owner') {
  if (body.email) await ownDomain(hub, org.id, body.email.split('@')[1]!.toLowerCase());
  return okBody(org.call(actor, 'createInvitation', { body }), 201);
}

const tokenOf = (url: string) => url.split('/invite/')[1]!;
const accept = (token: string, cookie: string | undefined) => hub.call('acceptInvitation', { path: { token }, cookie });

/** Every row an accept may write, to show a refused one wrote none. */
async function stateOf(org: OrgFixture): Promise<string> {
  const { db } = hub.services;
  return JSON.stringify([
    await db('memberships').where({ organization_id: org.id }).orderBy('id'),
    await db('team_members').orderBy('id'),
    await db('invitations').where({ organization_id: org.id }).orderBy('id'),
    await db('audit_events').where({ organization_id: org.id }).orderBy('seq'),
  ]);
}

async function expectRefused(org: OrgFixture, token: string, cookie: string, status: number, code: string) {
  const before = await stateOf(org);
  const res = await accept(token, cookie);
  expectError(res, status, code);
  expect(await stateOf(org)).toBe(before);
  return errorBody(res).error.message;
}

describe('creating an invitation', () => {
  it('answers the row and a link shown once; only the SHA-256 of its 256-bit token is stored', async () => {
    const org = await freshOrg();
    const team = await okBody(org.call('owner', 'createTeam', { body: { slug: 'eng', name: 'Engineering' } }));
    const created = await invite(org, { role: 'ADMIN', teamIds: [team.id], email: 'Ada@Example.COM' });
    const now = hub.clock.now().getTime();
    expect(created).toEqual({
      id: expect.any(String),
      role: 'ADMIN',
      teamIds: [team.id],
      email: 'ada@example.com',
      status: 'pending',
      createdBy: { id: org.userIds.owner, displayName: `Owner of ${org.slug}` },
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + 7 * DAY_MS).toISOString(),
      acceptedBy: null,
      acceptedAt: null,
      url: expect.stringMatching(/^http:\/\/hub\.test\/invite\/[A-Za-z0-9_-]{43}$/),
    });
    const token = tokenOf(created.url);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const rows = await hub.services.db('invitations').where({ id: created.id });
    expect(rows[0].token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);

    // The list shows it, never its link; the audit event neither.
    const listed = await okBody(org.call('owner', 'listInvitations'));
    const { url: _url, ...row } = created;
    expect(listed).toEqual({ invitations: [row], nextCursor: null });
    const events = await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'createInvitation' } }));
    expect(events.events).toHaveLength(1);
    expect(events.events[0]!.actor).toEqual({ type: 'user', id: org.userIds.owner, displayName: expect.any(String) });
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it('expires after 1 to 30 days; anything else is refused', async () => {
    const org = await freshOrg();
    const now = hub.clock.now().getTime();
    for (const days of [1, 30]) {
      const created = await invite(org, { role: 'MEMBER', expiresInDays: days });
      expect(created.expiresAt).toBe(new Date(now + days * DAY_MS).toISOString());
    }
    for (const expiresInDays of [0, 31, 1.5]) {
      expectError(
        await org.api('owner', 'POST', '/invitations', { role: 'MEMBER', expiresInDays }),
        400,
        'validation_failed',
      );
    }
    expectError(
      await org.api('owner', 'POST', '/invitations', { role: 'MEMBER', email: 'nobody' }),
      400,
      'validation_failed',
    );
    expectError(await org.api('owner', 'POST', '/invitations', { role: 'GUEST' }), 400, 'validation_failed');
  });

  it('only an OWNER invites an OWNER, or revokes such an invitation', async () => {
    const org = await freshOrg();
    const before = await stateOf(org);
    expectError(await org.call('admin', 'createInvitation', { body: { role: 'OWNER' } }), 403, 'owner_required');
    expect(await stateOf(org)).toBe(before);
    const owner = await invite(org, { role: 'OWNER' });
    expectError(
      await org.call('admin', 'revokeInvitation', { path: { invitationId: owner.id } }),
      403,
      'owner_required',
    );
    expect((await invite(org, { role: 'ADMIN' }, 'admin')).role).toBe('ADMIN');
  });

  it('refuses a team that is not an active team of the organization', async () => {
    const org = await freshOrg();
    const team = await okBody(org.call('owner', 'createTeam', { body: { slug: 'old', name: 'Old' } }));
    await okBody(org.call('owner', 'archiveTeam', { path: { teamId: team.id } }));
    for (const teamId of [team.id, 'no-such-team']) {
      expectError(
        await org.call('owner', 'createInvitation', { body: { role: 'MEMBER', teamIds: [teamId] } }),
        404,
        'team_not_found',
      );
    }
    expect(await hub.services.db('invitations').where({ organization_id: org.id })).toEqual([]);
  });
});

describe('looking at an invitation', () => {
  it('shows the organization, role, inviter, expiry and status to a signed-in visitor', async () => {
    const org = await freshOrg();
    const team = await okBody(org.call('owner', 'createTeam', { body: { slug: 'eng', name: 'Engineering' } }));
    const gone = await okBody(org.call('owner', 'createTeam', { body: { slug: 'gone', name: 'Gone' } }));
    const created = await invite(org, { role: 'MEMBER', teamIds: [team.id, gone.id] });
    // A team archived since the invitation was made is not given, so it is not named.
    await okBody(org.call('owner', 'archiveTeam', { path: { teamId: gone.id } }));
    const visitor = await person();
    const res = await hub.call('getInvitation', { path: { token: tokenOf(created.url) }, cookie: visitor.cookie });
    expectOk(res);
    expect(res.body).toEqual({
      organization: { slug: org.slug, name: `Org ${org.slug}` },
      role: 'MEMBER',
      invitedBy: { displayName: `Owner of ${org.slug}` },
      expiresAt: created.expiresAt,
      teams: [{ id: team.id, slug: 'eng', name: 'Engineering' }],
      status: 'pending',
    });
    expectError(await hub.call('getInvitation', { path: { token: tokenOf(created.url) } }), 401, 'unauthenticated');
    const unknown = 'A'.repeat(43);
    expectError(
      await hub.call('getInvitation', { path: { token: unknown }, cookie: visitor.cookie }),
      404,
      'invitation_not_found',
    );
    expectError(
      await hub.request('GET', '/api/invitations/short', { cookie: visitor.cookie }),
      400,
      'validation_failed',
    );
  });
});

describe('accepting an invitation', () => {
  it('joins with the role and the active teams at once, archived teams skipped, audited as the invitee', async () => {
    const org = await freshOrg();
    const eng = await okBody(org.call('owner', 'createTeam', { body: { slug: 'eng', name: 'Engineering' } }));
    const ops = await okBody(org.call('owner', 'createTeam', { body: { slug: 'ops', name: 'Operations' } }));
    const created = await invite(org, { role: 'ADMIN', teamIds: [eng.id, ops.id] });
    await okBody(org.call('owner', 'archiveTeam', { path: { teamId: ops.id } }));
    const invitee = await person();
    hub.clock.advance(60_000);

    const res = await accept(tokenOf(created.url), invitee.cookie);
    expectOk(res);
    expect(res.body).toEqual({
      organization: { slug: org.slug, name: `Org ${org.slug}` },
      member: expect.objectContaining({ userId: invitee.id, role: 'ADMIN' }),
      teamIds: [eng.id],
      skippedTeamIds: [ops.id],
    });
    const me = await okBody(hub.call('getMe', { cookie: invitee.cookie }));
    expect(me.organizations).toEqual([expect.objectContaining({ slug: org.slug, role: 'ADMIN' })]);
    const teamMembers = await okBody(org.call('owner', 'listTeamMembers', { path: { teamId: eng.id } }));
    expect(teamMembers.members.map((m) => m.userId)).toEqual([invitee.id]);

    // The invitee is named as the organization names its members (src/users/shown-profile.ts).
    const listed = (await okBody(org.call('owner', 'listMembers'))).members.find((m) => m.userId === invitee.id);
    const [row] = (await okBody(org.call('owner', 'listInvitations'))).invitations;
    expect(row).toMatchObject({
      status: 'accepted',
      acceptedBy: { id: invitee.id, displayName: listed?.displayName },
      acceptedAt: hub.clock.now().toISOString(),
    });
    const events = await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'acceptInvitation' } }));
    expect(events.events).toHaveLength(1);
    expect(events.events[0]).toMatchObject({
      actor: { type: 'user', id: invitee.id },
      target: { type: 'invitation', id: created.id },
      changes: {
        before: { status: 'pending' },
        after: { status: 'accepted', member: { userId: invitee.id, role: 'ADMIN' }, skippedTeamIds: [ops.id] },
      },
    });
  });

  it('is single use', async () => {
    const org = await freshOrg();
    const token = tokenOf((await invite(org, { role: 'MEMBER' })).url);
    expectOk(await accept(token, (await person()).cookie));
    const message = await expectRefused(org, token, (await person()).cookie, 409, 'invitation_used');
    expect(message).toMatch(/already accepted/);
  });

  it('refuses a revoked link; revoking twice answers the same, revoking a used one is refused', async () => {
    const org = await freshOrg();
    const created = await invite(org, { role: 'MEMBER' });
    const revoked = await okBody(org.call('admin', 'revokeInvitation', { path: { invitationId: created.id } }));
    expect(revoked.status).toBe('revoked');
    expect(await okBody(org.call('admin', 'revokeInvitation', { path: { invitationId: created.id } }))).toEqual(
      revoked,
    );
    await expectRefused(org, tokenOf(created.url), (await person()).cookie, 410, 'invitation_revoked');

    const used = await invite(org, { role: 'MEMBER' });
    expectOk(await accept(tokenOf(used.url), (await person()).cookie));
    expectError(
      await org.call('owner', 'revokeInvitation', { path: { invitationId: used.id } }),
      409,
      'invitation_not_pending',
    );
    expectError(
      await org.call('owner', 'revokeInvitation', { path: { invitationId: 'no-such-invitation' } }),
      404,
      'invitation_not_found',
    );
  });

  it('refuses an expired link, which stays listed as expired', async () => {
    const org = await freshOrg();
    const created = await invite(org, { role: 'MEMBER', expiresInDays: 1 });
    const pending = await invite(org, { role: 'MEMBER', expiresInDays: 3 });
    hub.clock.advance(DAY_MS);
    await expectRefused(org, tokenOf(created.url), (await person()).cookie, 410, 'invitation_expired');
    const expired = await okBody(org.call('owner', 'listInvitations', { query: { status: 'expired' } }));
    expect(expired.invitations.map((i) => [i.id, i.status])).toEqual([[created.id, 'expired']]);
    const stillPending = await okBody(org.call('owner', 'listInvitations', { query: { status: 'pending' } }));
    expect(stillPending.invitations.map((i) => i.id)).toEqual([pending.id]);
    expectError(
      await org.call('owner', 'revokeInvitation', { path: { invitationId: created.id } }),
      409,
      'invitation_not_pending',
    );
  });

  it('refuses an active member, and the link stays usable', async () => {
    const org = await freshOrg();
    const token = tokenOf((await invite(org, { role: 'ADMIN' })).url);
    await expectRefused(org, token, org.cookies.member, 409, 'already_member');
    expectOk(await accept(token, (await person()).cookie));
  });

  it('brings a revoked member back with the invited role', async () => {
    const org = await freshOrg();
    await okBody(org.call('owner', 'revokeMember', { path: { userId: org.userIds.member } }));
    const token = tokenOf((await invite(org, { role: 'ADMIN' })).url);
    const joined = await okBody(accept(token, org.cookies.member));
    expect(joined.member).toMatchObject({ userId: org.userIds.member, role: 'ADMIN' });
  });

  it('binds an email invitation to a user whose identity carries that email verified', async () => {
    const org = await freshOrg();
    const token = tokenOf((await invite(org, { role: 'MEMBER', email: 'grace@example.com' })).url);
    const stranger = await person();
    await expectRefused(org, token, stranger.cookie, 403, 'invitation_email_mismatch');
    await expectRefused(
      org,
      token,
      await signedInWithEmail('grace@example.com', false),
      403,
      'invitation_email_mismatch',
    );
    await expectRefused(org, token, await signedInWithEmail('ada@example.com', true), 403, 'invitation_email_mismatch');

    const grace = await signedInWithEmail('Grace@Example.com', true);
    expect((await okBody(accept(token, grace))).member.role).toBe('MEMBER');
  });

  it('stops at the memberCount limit', async () => {
    const org = await freshOrg();
    // owner, admin and member: the organization is full at 3.
    await okBody(org.call('owner', 'updateCapacityPolicy', { body: { limits: { memberCount: 3 } } }));
    const token = tokenOf((await invite(org, { role: 'MEMBER' })).url);
    await expectRefused(org, token, (await person()).cookie, 409, 'capacity_exceeded');
  });

  it('needs a session', async () => {
    const org = await freshOrg();
    const token = tokenOf((await invite(org, { role: 'MEMBER' })).url);
    expectError(await accept(token, undefined), 401, 'unauthenticated');
    expectError(await accept('B'.repeat(43), (await person()).cookie), 404, 'invitation_not_found');
  });

  it('of two concurrent accepts of one link, exactly one joins', async () => {
    const org = await freshOrg();
    for (let round = 0; round < 3; round++) {
      const token = tokenOf((await invite(org, { role: 'MEMBER' })).url);
      const [a, b] = [await person(), await person()];
      const answers = await Promise.all([accept(token, a.cookie), accept(token, b.cookie)]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(errorBody(answers.find((r) => r.status === 409)!).error.code).toBe('invitation_used');
      const joined = await hub.services
        .db('memberships')
        .where({ organization_id: org.id })
        .whereIn('user_id', [a.id, b.id]);
      expect(joined).toHaveLength(1);
    }
    const events = await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'acceptInvitation' } }));
    expect(events.events).toHaveLength(3);
  });
});

describe('listing invitations', () => {
  it('pages newest first with limit and cursor', async () => {
    const org = await freshOrg();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.unshift((await invite(org, { role: 'MEMBER' })).id);
      hub.clock.advance(1000);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await okBody(org.call('owner', 'listInvitations', { query: { limit: 2, cursor } }));
      seen.push(...page.invitations.map((i) => i.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(ids);
    expectError(await org.call('member', 'listInvitations'), 403, 'org_admin_required');
  });
});

describe('the invitations addressed to the signed-in user', () => {
  const mine = (cookie: string | undefined) => hub.call('listMyInvitations', { cookie });
  const acceptMine = (invitationId: string, cookie: string) =>
    hub.call('acceptMyInvitation', { path: { invitationId }, cookie });

  it('lists the pending, unexpired ones for a verified email, newest first, without their link', async () => {
    const [a, b] = [await freshOrg(), await freshOrg()];
    const email = `${unique('lin')}@example.com`;
    const older = await invite(a, { role: 'MEMBER', email });
    hub.clock.advance(1000);
    const newer = await invite(b, { role: 'ADMIN', email: email.toUpperCase() });
    // Not listed: no email, another email, revoked, used, expired.
    await invite(a, { role: 'MEMBER' });
    await invite(a, { role: 'MEMBER', email: 'someone-else@example.com' });
    const revoked = await invite(a, { role: 'MEMBER', email });
    await okBody(a.call('owner', 'revokeInvitation', { path: { invitationId: revoked.id } }));
    hub.clock.advance(1000);
    const expiring = await invite(b, { role: 'MEMBER', email, expiresInDays: 1 });

    const cookie = await signedInWithEmail(email, true);
    const listed = await okBody(mine(cookie));
    expect(listed.invitations.map((i) => i.id)).toEqual([expiring.id, newer.id, older.id]);
    expect(listed.invitations[1]).toEqual({
      id: newer.id,
      organization: { slug: b.slug, name: expect.any(String) },
      role: 'ADMIN',
      invitedBy: { displayName: `Owner of ${b.slug}` },
      expiresAt: newer.expiresAt,
      teams: [],
    });
    expect(JSON.stringify(listed)).not.toContain(tokenOf(newer.url));
    hub.clock.advance(DAY_MS);
    expect((await okBody(mine(cookie))).invitations.map((i) => i.id)).toEqual([newer.id, older.id]);

    // Unverified, or no provider identity at all: nothing.
    expect(await okBody(mine(await signedInWithEmail(email, false)))).toEqual({ invitations: [] });
    expect(await okBody(mine((await person()).cookie))).toEqual({ invitations: [] });
    expectError(await mine(undefined), 401, 'unauthenticated');
  });

  it('accepts one by id as its link does, audited as the invitee', async () => {
    const org = await freshOrg();
    const team = await okBody(org.call('owner', 'createTeam', { body: { slug: 'ops', name: 'Ops' } }));
    const email = `${unique('acc')}@example.com`;
    const created = await invite(org, { role: 'ADMIN', teamIds: [team.id], email });
    const cookie = await signedInWithEmail(email, true);
    const joined = await okBody(acceptMine(created.id, cookie));
    expect(joined).toMatchObject({ organization: { slug: org.slug }, member: { role: 'ADMIN' }, teamIds: [team.id] });
    expect(await okBody(mine(cookie))).toEqual({ invitations: [] });
    const events = await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'acceptMyInvitation' } }));
    expect(events.events).toHaveLength(1);
    expect(events.events[0]!.actor).toMatchObject({ type: 'user', id: joined.member.userId });
    await expectRefused409(org, created.id, cookie);
  });

  it('finds no invitation by id that is not addressed to the caller, changing nothing', async () => {
    const org = await freshOrg();
    const email = `${unique('not')}@example.com`;
    const forOther = await invite(org, { role: 'MEMBER', email: 'other-person@example.com' });
    const noEmail = await invite(org, { role: 'MEMBER' });
    const forMe = await invite(org, { role: 'MEMBER', email });
    const cases: Array<[string, string]> = [
      [forOther.id, await signedInWithEmail(email, true)],
      [noEmail.id, await signedInWithEmail(email, true)],
      [forMe.id, await signedInWithEmail(email, false)],
      [forMe.id, (await person()).cookie],
      ['no-such-invitation', await signedInWithEmail(email, true)],
    ];
    for (const [invitationId, cookie] of cases) {
      const before = await stateOf(org);
      expectError(await acceptMine(invitationId, cookie), 404, 'invitation_not_found');
      expect(await stateOf(org)).toBe(before);
    }
  });

  it('refuses a revoked or expired one by id with its reason', async () => {
    const org = await freshOrg();
    const email = `${unique('gone')}@example.com`;
    const cookie = await signedInWithEmail(email, true);
    const revoked = await invite(org, { role: 'MEMBER', email });
    await okBody(org.call('owner', 'revokeInvitation', { path: { invitationId: revoked.id } }));
    expectError(await acceptMine(revoked.id, cookie), 410, 'invitation_revoked');
    const expired = await invite(org, { role: 'MEMBER', email, expiresInDays: 1 });
    hub.clock.advance(DAY_MS);
    expectError(await acceptMine(expired.id, cookie), 410, 'invitation_expired');
  });

  async function expectRefused409(org: OrgFixture, invitationId: string, cookie: string) {
    const before = await stateOf(org);
    expectError(await acceptMine(invitationId, cookie), 409, 'invitation_used');
    expect(await stateOf(org)).toBe(before);
  }
});
