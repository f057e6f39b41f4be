import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/api-tokens/scopes.js';
import { holdsJobLock } from '../../src/db/job-lock.js';
import type { OrgCallArgs, OrgOperationId } from '../support/api-client.js';
import { expectError, expectOk, okBody } from '../support/assertions.js';
import { cliEnv, runHub } from '../support/hub-cli.js';
import { type OrgActor, type OrgFixture, seedOrg } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';

/**
 * Service accounts and the token policy, through the HTTP API and the host console: accounts as
 * principals (teams, grants, roles) that are no members, tokens that outlive their creator,
 * rotation with an overlap, the policy at issue and the sweep.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let hub: TestHub;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

beforeAll(async () => {
  hub = await TestHub.start();
});
afterAll(() => hub.stop());

/** A typed call of an organization's operation with a bearer token and no cookie. */
const withToken = <O extends OrgOperationId>(
  org: OrgFixture,
  token: string,
  operationId: O,
  ...input: OrgCallArgs<O>
) => {
  const given = (input[0] ?? {}) as { headers?: Record<string, string> };
  const args = [
    { ...given, headers: { ...given.headers, authorization: `Bearer ${token}` } },
  ] as unknown as OrgCallArgs<O>;
  return hub.orgCall(org.slug, undefined, operationId, ...args);
};

const newOrg = () => seedOrg(hub, unique('sa'));

async function accountIn(org: OrgFixture, role: 'MEMBER' | 'ADMIN' = 'MEMBER', actor: OrgActor = 'admin') {
  return okBody(org.call(actor, 'createServiceAccount', { body: { name: unique('robot'), role } }), 201);
}

async function accountToken(org: OrgFixture, serviceAccountId: string, scopes: Scope[], expiresAt?: string) {
  return okBody(
    org.call('admin', 'createApiToken', {
      body: { name: unique('token'), scopes, serviceAccountId, ...(expiresAt ? { expiresAt } : {}) },
    }),
    201,
  );
}

describe('a service account', () => {
  it('is created, listed, changed, disabled and enabled by org admins, and is no member', async () => {
    const org = await newOrg();
    const created = await okBody(
      org.call('admin', 'createServiceAccount', { body: { name: 'CI deployer', description: 'deploys main' } }),
      201,
    );
    expect(created).toEqual({
      id: expect.any(String),
      name: 'CI deployer',
      description: 'deploys main',
      role: 'MEMBER',
      disabledAt: null,
      createdAt: hub.clock.now().toISOString(),
      createdBy: { id: org.userIds.admin, displayName: expect.any(String) },
      teams: [],
    });
    const listed = await okBody(org.call('owner', 'listServiceAccounts'));
    expect(listed.serviceAccounts.map((a) => a.id)).toEqual([created.id]);

    // No member, no seat.
    const members = await okBody(org.call('owner', 'listMembers'));
    expect(members.members.map((m) => m.userId)).not.toContain(created.id);
    const capacity = await okBody(org.call('owner', 'getCapacityPolicy'));
    const seats = capacity.dimensions.find((d) => d.dimension === 'memberCount');
    expect(seats?.inUse).toBe(3);
    expectError(await org.call('owner', 'revokeMember', { path: { userId: created.id } }), 404, 'member_not_found');

    const changed = await okBody(
      org.call('admin', 'updateServiceAccount', {
        path: { serviceAccountId: created.id },
        body: { name: 'Deployer', role: 'ADMIN', description: null },
      }),
    );
    expect(changed).toMatchObject({ name: 'Deployer', role: 'ADMIN', description: null });
    const disabled = await okBody(
      org.call('admin', 'disableServiceAccount', { path: { serviceAccountId: created.id } }),
    );
    expect(disabled.disabledAt).toBe(hub.clock.now().toISOString());
    const enabled = await okBody(org.call('admin', 'enableServiceAccount', { path: { serviceAccountId: created.id } }));
    expect(enabled.disabledAt).toBeNull();
    expect(await okBody(org.call('admin', 'getServiceAccount', { path: { serviceAccountId: created.id } }))).toEqual(
      enabled,
    );
  });

  it('refuses OWNER, a taken name, and members; another organization cannot see it', async () => {
    const org = await newOrg();
    const other = await newOrg();
    const account = await accountIn(org);
    expectError(
      await org.api('admin', 'POST', '/service-accounts', { name: 'x', role: 'OWNER' }),
      400,
      'validation_failed',
    );
    expectError(
      await org.call('admin', 'createServiceAccount', { body: { name: account.name } }),
      409,
      'service_account_exists',
    );
    expectError(await org.call('member', 'listServiceAccounts'), 403, 'org_admin_required');
    expectError(
      await other.call('owner', 'getServiceAccount', { path: { serviceAccountId: account.id } }),
      404,
      'service_account_not_found',
    );
    // Its imOpenId names no one who may join or sign in.
    const user = await hub.services.users.findById(hub.services.db, account.id);
    expectError(
      await other.call('owner', 'addMember', { body: { imOpenId: user!.imOpenId, role: 'MEMBER' } }),
      400,
      'validation_failed',
    );
    await expect(hub.services.sessions.issueLoginLink(user!.imOpenId)).rejects.toMatchObject({
      status: 401,
      code: 'unauthenticated',
    });
  });

  it('joins teams and reaches projects through their grants; its changes are audited as its own', async () => {
    const org = await newOrg();
    const account = await accountIn(org);
    const project = await okBody(org.call('owner', 'createProject', { body: { name: 'Pipeline' } }));
    const team = await okBody(org.call('owner', 'createTeam', { body: { slug: 'bots', name: 'Bots' } }));
    const { token } = await accountToken(org, account.id, ['projects:read', 'teams:write']);

    expectError(
      await withToken(org, token, 'getProject', { path: { projectId: project.id } }),
      403,
      'project_access_denied',
    );
    await okBody(org.call('owner', 'addTeamMember', { path: { teamId: team.id }, body: { userId: account.id } }), 201);
    await okBody(
      org.call('owner', 'putProjectTeamAccess', {
        path: { projectId: project.id },
        body: { teamSlug: 'bots', role: 'READ' },
      }),
    );
    expectOk(await withToken(org, token, 'getProject', { path: { projectId: project.id } }));
    const shown = await okBody(org.call('owner', 'getServiceAccount', { path: { serviceAccountId: account.id } }));
    expect(shown.teams).toEqual([{ id: team.id, slug: 'bots', name: 'Bots' }]);

    // As a MEMBER it may not create teams; made ADMIN, it may, and the event names it.
    expectError(
      await withToken(org, token, 'createTeam', { body: { slug: 'made-by-bot', name: 'x' } }),
      403,
      'org_admin_required',
    );
    await okBody(
      org.call('owner', 'updateServiceAccount', { path: { serviceAccountId: account.id }, body: { role: 'ADMIN' } }),
    );
    await okBody(withToken(org, token, 'createTeam', { body: { slug: 'made-by-bot', name: 'Made by bot' } }));
    const events = await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'createTeam' } }));
    expect(events.events[0]!.actor).toEqual({
      type: 'serviceAccount',
      id: account.id,
      displayName: expect.stringContaining(account.name),
    });
  });

  it('keeps an integration running when its creator leaves, while the creator’s own tokens stop', async () => {
    const org = await newOrg();
    const creatorIm = unique('creator');
    await hub.addMembership(org.id, creatorIm, 'ADMIN');
    const creatorCookie = await hub.login(creatorIm);
    const asCreator = <O extends OrgOperationId>(operationId: O, ...input: OrgCallArgs<O>) =>
      hub.orgCall(org.slug, creatorCookie, operationId, ...input);
    const account = await okBody(asCreator('createServiceAccount', { body: { name: 'Nightly sync' } }), 201);
    const integration = await okBody(
      asCreator('createApiToken', { body: { name: 'sync', scopes: ['org:read'], serviceAccountId: account.id } }),
      201,
    );
    expect(integration.owner).toMatchObject({ type: 'serviceAccount', id: account.id });
    const personal = await okBody(asCreator('createApiToken', { body: { name: 'mine', scopes: ['org:read'] } }), 201);
    const webhook = await okBody(
      asCreator('createWebhook', { body: { url: 'https://93.184.216.34/hook', events: ['createTeam'] } }),
      201,
    );
    const creatorId = personal.owner.id;

    const departure = await okBody(org.call('owner', 'getMemberDeparture', { path: { userId: creatorId } }));
    expect(departure.stops.apiTokens.map((t) => t.id)).toEqual([personal.id]);
    expect(departure.stays.webhooks).toEqual([{ id: webhook.id, label: '93.184.216.34' }]);

    const revoked = await okBody(org.call('owner', 'revokeMember', { path: { userId: creatorId } }));
    expect(revoked.departure.stops.apiTokens).toEqual([
      expect.objectContaining({ id: personal.id, revokedAt: hub.clock.now().toISOString() }),
    ]);
    expectOk(await withToken(org, integration.token, 'getOrganization'));
    expectError(await withToken(org, personal.token, 'getOrganization'), 401, 'token_invalid');
    const tokens = await okBody(org.call('owner', 'listApiTokens', { query: { serviceAccountId: account.id } }));
    expect(tokens.tokens.map((t) => [t.id, t.revokedAt])).toEqual([[integration.id, null]]);
  });

  it('stops its tokens while disabled and ends them when deleted', async () => {
    const org = await newOrg();
    const account = await accountIn(org);
    const { token } = await accountToken(org, account.id, ['org:read']);
    expectOk(await withToken(org, token, 'getOrganization'));
    await okBody(org.call('admin', 'disableServiceAccount', { path: { serviceAccountId: account.id } }));
    expectError(await withToken(org, token, 'getOrganization'), 401, 'token_invalid');
    expectError(
      await org.call('admin', 'createApiToken', {
        body: { name: 'x', scopes: ['org:read'], serviceAccountId: account.id },
      }),
      409,
      'service_account_disabled',
    );
    await okBody(org.call('admin', 'enableServiceAccount', { path: { serviceAccountId: account.id } }));
    expectOk(await withToken(org, token, 'getOrganization'));

    const res = await org.call('admin', 'deleteServiceAccount', { path: { serviceAccountId: account.id } });
    expectOk(res, 204);
    expectError(await withToken(org, token, 'getOrganization'), 401, 'token_invalid');
    expect((await okBody(org.call('admin', 'listServiceAccounts'))).serviceAccounts).toEqual([]);
    expectError(
      await org.call('admin', 'getServiceAccount', { path: { serviceAccountId: account.id } }),
      404,
      'service_account_not_found',
    );
  });

  it('gets tokens only from org admins', async () => {
    const org = await newOrg();
    const account = await accountIn(org);
    expectError(
      await org.call('member', 'createApiToken', {
        body: { name: 'x', scopes: ['org:read'], serviceAccountId: account.id },
      }),
      403,
      'org_admin_required',
    );
    expect(
      (await okBody(org.call('member', 'listApiTokens', { query: { serviceAccountId: account.id } }))).tokens,
    ).toEqual([]);
  });
});

describe('rotating a token', () => {
  it('keeps its id and public id; both secrets work during the overlap, only the new one after', async () => {
    const org = await newOrg();
    const account = await accountIn(org);
    const first = await accountToken(org, account.id, ['org:read']);
    const rotated = await okBody(
      org.call('admin', 'rotateApiToken', { path: { tokenId: first.id }, body: { overlapHours: 2 } }),
    );
    expect(rotated).toMatchObject({ id: first.id, publicId: first.publicId, prefix: first.prefix });
    expect(rotated.token).not.toBe(first.token);
    expect(rotated.token.startsWith(`hubt_${first.publicId}_`)).toBe(true);
    expectOk(await withToken(org, first.token, 'getOrganization'));
    expectOk(await withToken(org, rotated.token, 'getOrganization'));
    hub.clock.advance(2 * HOUR - 1000);
    expectOk(await withToken(org, first.token, 'getOrganization'));
    hub.clock.advance(1000);
    expectError(await withToken(org, first.token, 'getOrganization'), 401, 'token_invalid');
    expectOk(await withToken(org, rotated.token, 'getOrganization'));
  });

  it('accepts a token of the earlier form until it ends, and rotates it into the new form', async () => {
    const org = await newOrg();
    const legacy = `hubt_${'Ab1'.repeat(14)}X`;
    const id = unique('legacy-token');
    await hub.services.db('api_tokens').insert({
      id,
      public_id: 'legacyid234567ab',
      organization_id: org.id,
      user_id: org.userIds.member,
      name: 'made before',
      scopes: JSON.stringify(['org:read']),
      prefix: legacy.slice(0, 12),
      token_hash: createHash('sha256').update(legacy).digest('hex'),
      created_at: hub.clock.now().toISOString(),
      expires_at: null,
      last_used_at: null,
      revoked_at: null,
    });
    expectOk(await withToken(org, legacy, 'getOrganization'));
    const rotated = await okBody(org.call('member', 'rotateApiToken', { path: { tokenId: id } }));
    expect(rotated.token).toMatch(/^hubt_legacyid234567ab_[0-9A-Za-z]{43}$/);
    expect(rotated.createdBy).toEqual({ id: org.userIds.member, displayName: expect.any(String) });
    expectOk(await withToken(org, legacy, 'getOrganization'));
    hub.clock.advance(24 * HOUR);
    expectError(await withToken(org, legacy, 'getOrganization'), 401, 'token_invalid');
    expectOk(await withToken(org, rotated.token, 'getOrganization'));
  });

  it('with no overlap, or again within one, ends the earlier secrets at once', async () => {
    const org = await newOrg();
    const created = await okBody(
      org.call('member', 'createApiToken', { body: { name: 'm', scopes: ['org:read'] } }),
      201,
    );
    const second = await okBody(org.call('member', 'rotateApiToken', { path: { tokenId: created.id } }));
    expectOk(await withToken(org, created.token, 'getOrganization'));
    const third = await okBody(
      org.call('member', 'rotateApiToken', { path: { tokenId: created.id }, body: { overlapHours: 0 } }),
    );
    expectError(await withToken(org, created.token, 'getOrganization'), 401, 'token_invalid');
    expectError(await withToken(org, second.token, 'getOrganization'), 401, 'token_invalid');
    expectOk(await withToken(org, third.token, 'getOrganization'));
  });

  it('refuses an overlap beyond 72 hours, another member’s token and a revoked one, changing nothing', async () => {
    const org = await newOrg();
    const created = await okBody(
      org.call('owner', 'createApiToken', { body: { name: 'o', scopes: ['org:read'] } }),
      201,
    );
    const before = await hub.services.db('api_tokens').where({ id: created.id }).first();
    expectError(
      await org.api('owner', 'POST', `/api-tokens/${created.id}/rotate`, { overlapHours: 73 }),
      400,
      'validation_failed',
    );
    expectError(await org.call('member', 'rotateApiToken', { path: { tokenId: created.id } }), 404, 'token_not_found');
    expect(await hub.services.db('api_tokens').where({ id: created.id }).first()).toEqual(before);
    await okBody(org.call('owner', 'revokeApiToken', { path: { tokenId: created.id } }));
    expectError(await org.call('owner', 'rotateApiToken', { path: { tokenId: created.id } }), 404, 'token_not_found');
  });
});

describe('the token policy', () => {
  const setPolicy = (org: OrgFixture, tokens: Record<string, unknown>) =>
    okBody(org.call('owner', 'updateOrgSettings', { body: { tokens } }));

  it('is shown in the settings with its defaults, and changed in part', async () => {
    const org = await newOrg();
    expect((await okBody(org.call('owner', 'getOrgSettings'))).tokens).toEqual({
      personalAllowed: true,
      requireExpiry: false,
      maxLifetimeDays: null,
      revokeUnusedAfterDays: null,
    });
    const changed = await setPolicy(org, { maxLifetimeDays: 90 });
    expect(changed.tokens).toEqual({
      personalAllowed: true,
      requireExpiry: false,
      maxLifetimeDays: 90,
      revokeUnusedAfterDays: null,
    });
    expectError(
      await org.api('owner', 'PATCH', '/settings', { tokens: { maxLifetimeDays: 0 } }),
      400,
      'validation_failed',
    );
  });

  it('refuses at creation what it forbids, naming the rule, and creates nothing', async () => {
    const org = await newOrg();
    const account = await accountIn(org);
    const count = async () => Number((await hub.services.db('api_tokens').count({ n: '*' }).first())?.n);
    const inDays = (days: number) => new Date(hub.clock.now().getTime() + days * DAY).toISOString();
    await setPolicy(org, { personalAllowed: false, maxLifetimeDays: 30 });
    const before = await count();
    const refusals: Array<[OrgActor, Record<string, unknown>, string]> = [
      ['member', { name: 'p', scopes: ['org:read'], expiresAt: inDays(1) }, 'personalAllowed'],
      ['admin', { name: 'a', scopes: ['org:read'], serviceAccountId: account.id }, 'maxLifetimeDays'],
      [
        'admin',
        { name: 'a', scopes: ['org:read'], serviceAccountId: account.id, expiresAt: inDays(31) },
        'maxLifetimeDays',
      ],
    ];
    for (const [actor, body, rule] of refusals) {
      const res = await org.api(actor, 'POST', '/api-tokens', body);
      expect(expectError(res, 422, 'token_policy_violation').error.message).toContain(rule);
    }
    expect(await count()).toBe(before);
    await accountToken(org, account.id, ['org:read'], inDays(30));

    await setPolicy(org, { personalAllowed: true, maxLifetimeDays: null, requireExpiry: true });
    const res = await org.api('member', 'POST', '/api-tokens', { name: 'p', scopes: ['org:read'] });
    expect(expectError(res, 422, 'token_policy_violation').error.message).toContain('requireExpiry');
    await okBody(
      org.call('member', 'createApiToken', { body: { name: 'p', scopes: ['org:read'], expiresAt: inDays(400) } }),
      201,
    );
  });

  it('is checked at rotation, and a change never extends a token already issued', async () => {
    const org = await newOrg();
    const unlimited = await okBody(
      org.call('owner', 'createApiToken', { body: { name: 'u', scopes: ['org:read'] } }),
      201,
    );
    const inTwoDays = new Date(hub.clock.now().getTime() + 2 * DAY).toISOString();
    const short = await okBody(
      org.call('owner', 'createApiToken', { body: { name: 's', scopes: ['org:read'], expiresAt: inTwoDays } }),
      201,
    );
    await setPolicy(org, { maxLifetimeDays: 7 });
    const refused = await org.call('owner', 'rotateApiToken', { path: { tokenId: unlimited.id } });
    expect(expectError(refused, 422, 'token_policy_violation').error.message).toContain('maxLifetimeDays');
    const inSixDays = new Date(hub.clock.now().getTime() + 6 * DAY).toISOString();
    const rotated = await okBody(
      org.call('owner', 'rotateApiToken', { path: { tokenId: unlimited.id }, body: { expiresAt: inSixDays } }),
    );
    expect(rotated.expiresAt).toBe(inSixDays);
    await setPolicy(org, { maxLifetimeDays: 365 });
    const tokens = await okBody(org.call('owner', 'listApiTokens'));
    expect(tokens.tokens.find((t) => t.id === short.id)!.expiresAt).toBe(inTwoDays);
  });

  it('sweep revokes expired tokens and tokens unused past the limit, each audited as the system', async () => {
    const org = await newOrg();
    const account = await accountIn(org);
    const soon = new Date(hub.clock.now().getTime() + HOUR).toISOString();
    const expiring = await accountToken(org, account.id, ['org:read'], soon);
    const idle = await accountToken(org, account.id, ['org:read']);
    const busy = await accountToken(org, account.id, ['org:read']);
    await setPolicy(org, { revokeUnusedAfterDays: 3 });
    hub.clock.advance(2 * DAY);
    expectOk(await withToken(org, busy.token, 'getOrganization'));
    hub.clock.advance(DAY + HOUR);
    // Other organizations' tokens may be swept in the same round: only this one's are counted here.
    await hub.services.apiTokens.sweep();

    // Days have passed: the owner signs in again.
    const cookie = await hub.login(`${org.slug}-owner`);
    const asOwner = <O extends OrgOperationId>(operationId: O, ...input: OrgCallArgs<O>) =>
      hub.orgCall(org.slug, cookie, operationId, ...input);
    const tokens = await okBody(asOwner('listApiTokens', { query: { serviceAccountId: account.id } }));
    const revokedAt = Object.fromEntries(tokens.tokens.map((t) => [t.id, t.revokedAt]));
    expect(revokedAt).toEqual({
      [expiring.id]: hub.clock.now().toISOString(),
      [idle.id]: hub.clock.now().toISOString(),
      [busy.id]: null,
    });
    expectError(await withToken(org, idle.token, 'getOrganization'), 401, 'token_invalid');
    expectOk(await withToken(org, busy.token, 'getOrganization'));
    const events = await okBody(asOwner('listAuditEvents', { query: { action: 'apiToken.sweep' } }));
    expect(events.events.map((e) => [e.target.id, e.actor.type])).toEqual(
      expect.arrayContaining([
        [expiring.id, 'system'],
        [idle.id, 'system'],
      ]),
    );
    expect(events.events).toHaveLength(2);
    // A second round finds nothing more to do.
    const again = await okBody(asOwner('listAuditEvents', { query: { action: 'apiToken.sweep' } }));
    await hub.services.apiTokens.sweep();
    expect((await okBody(asOwner('listAuditEvents', { query: { action: 'apiToken.sweep' } }))).events).toEqual(
      again.events,
    );
  });
});

describe('the sweep on PostgreSQL', () => {
  it('runs on one instance at a time: a round that finds another holding the lock skips', async (ctx) => {
    if (!hub.database.databaseUrl) return ctx.skip();
    const org = await newOrg();
    const account = await accountIn(org);
    const token = await accountToken(
      org,
      account.id,
      ['org:read'],
      new Date(hub.clock.now().getTime() + HOUR).toISOString(),
    );
    hub.clock.advance(2 * HOUR);
    // Another instance's round, holding the lock in its transaction.
    await hub.services.db.transaction(async (trx) => {
      expect(await holdsJobLock(trx, 'api-token-sweep')).toBe(true);
      expect(await hub.services.apiTokens.sweep()).toBe(0);
    });
    expect((await hub.services.db('api_tokens').where({ id: token.id }).first()).revoked_at).toBeNull();
    expect(await hub.services.apiTokens.sweep()).toBeGreaterThanOrEqual(1);
    expect((await hub.services.db('api_tokens').where({ id: token.id }).first()).revoked_at).toBe(
      hub.clock.now().toISOString(),
    );
  });
});

describe('hub service-account', () => {
  it('creates an account, lists it, and prints a working token alone on stdout', async () => {
    const org = await newOrg();
    const env = cliEnv(hub.database.dataDir, hub.database.databaseUrl);
    const created = await runHub(['service-account', 'create', org.slug, 'runtime', '--role', 'ADMIN'], env);
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    expect(created.stderr).toBe(`created service account "runtime" (ADMIN) in ${org.slug}\n`);

    const listed = await runHub(['service-account', 'list', org.slug], env);
    expect(listed.stdout).toBe(`${id}\tADMIN\tenabled\truntime\n`);

    const token = await runHub(
      ['service-account', 'token', org.slug, 'runtime', '--name', 'first', '--scopes', 'teams:read'],
      env,
    );
    expect(token.code, token.stderr).toBe(0);
    expect(token.stdout).toMatch(/^hubt_[a-z2-7]{16}_[0-9A-Za-z]{43}\n$/);
    expectOk(await withToken(org, token.stdout.trim(), 'listTeams'));
    const events = await okBody(org.call('owner', 'listAuditEvents', { query: { targetType: 'service_account' } }));
    expect(events.events.map((e) => [e.action, e.actor.type])).toEqual([['hub.service-account.create', 'console']]);
  });

  it('refuses with one line and exit 2: OWNER, an unknown account, unknown scopes', async () => {
    const org = await newOrg();
    const env = cliEnv(hub.database.dataDir, hub.database.databaseUrl);
    const cases: Array<[string[], RegExp]> = [
      [['create', org.slug, 'x', '--role', 'OWNER'], /MEMBER or ADMIN/],
      [['token', org.slug, 'nobody', '--name', 'n', '--scopes', 'org:read'], /no service account "nobody"/],
      [['token', org.slug, 'x', '--name', 'n', '--scopes', 'org:delete'], /unknown scope org:delete/],
      [['rename', org.slug], /unknown subcommand/],
    ];
    for (const [args, message] of cases) {
      const result = await runHub(['service-account', ...args], env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
    }
  });
});
