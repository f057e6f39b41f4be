import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ACTOR, withAuditScope } from '../../src/audit/scope.js';
import type { HttpResult, Schema } from '../support/api-client.js';
import { expectError, okBody } from '../support/assertions.js';
import { seedOrg, userIdOf, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';

/**
 * The audit events of teams, organization settings and creation, the capacity policy and the
 * connections: each change writes exactly one event, with the operation, the target, the target
 * as the API shows it before and after, and the request's id; a refused call or a call that
 * changes nothing writes none; no secret sent ever shows up in an event.
 */

type AuditEvent = Schema<'AuditEvent'>;
const isLabel = (label: unknown) => label === null || (typeof label === 'string' && label.length > 0);

let hub: TestHub;
let counter = 0;
const freshOrg = () => seedOrg(hub, `audit-a-${++counter}`);
const canary = (label: string) => `CANARY-${label}-${randomBytes(9).toString('hex')}`;

beforeAll(async () => {
  hub = await TestHub.start();
});
afterAll(() => hub.stop());

/** The organization's whole audit log, newest first, as its OWNER reads it. */
async function auditLog(org: OrgFixture): Promise<AuditEvent[]> {
  const page = await okBody(org.call('owner', 'listAuditEvents', { query: { limit: 1000 } }), 200);
  expect(page.nextCursor).toBeNull();
  return page.events;
}

/** Runs the call and returns its response and the events that appeared meanwhile, newest first. */
async function withEvents<R>(org: OrgFixture, call: () => Promise<R>): Promise<{ res: R; added: AuditEvent[] }> {
  const known = new Set((await auditLog(org)).map((event) => event.id));
  const res = await call();
  return { res, added: (await auditLog(org)).filter((event) => !known.has(event.id)) };
}

/** The one event a call of the OWNER's wrote, checked whole. */
function expectOneEvent(
  org: OrgFixture,
  res: HttpResult,
  added: AuditEvent[],
  expected: { action: string; target: Omit<AuditEvent['target'], 'label'>; before: unknown; after: unknown },
): AuditEvent {
  expect(res.status, res.text).toBeLessThan(300);
  expect(added).toHaveLength(1);
  const requestId = res.headers.get('x-request-id');
  expect(requestId).toBeTruthy();
  expect(added[0]).toEqual({
    id: expect.any(String),
    at: expect.any(String),
    actor: { type: 'user', id: org.userIds.owner, displayName: `Owner of ${org.slug}` },
    action: expected.action,
    // Labels and sentences are checked in audit-readable.test.ts.
    target: { ...expected.target, label: expect.toSatisfy(isLabel) },
    summary: expect.any(String),
    requestId,
    clientRequestId: null,
    changes: { before: expected.before, after: expected.after },
  });
  return added[0]!;
}

/** Every audit event of the database, for calls whose organization may not exist. */
const allEventCount = async () =>
  Number((await hub.services.db('audit_events').count<{ n: number | string }[]>({ n: '*' }).first())?.n ?? 0);

/** Runs the work as a host console command (`hub <action>`) would. */
const asConsole = <T>(action: string, work: () => Promise<T>) =>
  withAuditScope({ actor: CONSOLE_ACTOR, action, requestId: null, at: hub.clock.now() }, work);

describe('teams', () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await freshOrg();
  });

  const createTeam = (slug: string) => org.call('owner', 'createTeam', { body: { slug, name: `Team ${slug}` } });

  it('createTeam records the new team; a taken slug records nothing', async () => {
    const { res, added } = await withEvents(org, () => createTeam('core'));
    const team = await okBody(res, 201);
    expectOneEvent(org, res, added, {
      action: 'createTeam',
      target: { type: 'team', id: team.id },
      before: null,
      after: team,
    });
    const again = await withEvents(org, () => createTeam('core'));
    expectError(again.res, 409, 'slug_taken');
    expect(again.added).toEqual([]);
  });

  it('updateTeam records before and after; same values or an unknown team record nothing', async () => {
    const team = await okBody(createTeam('update-me'), 201);
    const { res, added } = await withEvents(org, () =>
      org.call('owner', 'updateTeam', {
        path: { teamId: team.id },
        body: { name: 'Renamed', description: 'now described' },
      }),
    );
    const updated = await okBody(res, 200);
    expect(updated).toMatchObject({ name: 'Renamed', description: 'now described' });
    expectOneEvent(org, res, added, {
      action: 'updateTeam',
      target: { type: 'team', id: team.id },
      before: team,
      after: updated,
    });

    const same = await withEvents(org, () =>
      org.call('owner', 'updateTeam', { path: { teamId: team.id }, body: { name: 'Renamed' } }),
    );
    expect(same.res.status).toBe(200);
    expect(same.added).toEqual([]);

    const missing = await withEvents(org, () =>
      org.call('owner', 'updateTeam', { path: { teamId: 'no-such-team' }, body: { name: 'x' } }),
    );
    expectError(missing.res, 404, 'team_not_found');
    expect(missing.added).toEqual([]);
  });

  it('addTeamMember and revokeTeamMember record the team membership; refusals record nothing', async () => {
    const team = await okBody(createTeam('members'), 201);
    const memberId = org.userIds.member;
    const target = { type: 'team_member', id: `${team.id}:${memberId}` };

    const add = await withEvents(org, () =>
      org.call('owner', 'addTeamMember', { path: { teamId: team.id }, body: { userId: memberId } }),
    );
    const added = await okBody(add.res, 201);
    expectOneEvent(org, add.res, add.added, { action: 'addTeamMember', target, before: null, after: added });

    const twice = await withEvents(org, () =>
      org.call('owner', 'addTeamMember', { path: { teamId: team.id }, body: { userId: memberId } }),
    );
    expectError(twice.res, 409, 'already_team_member');
    expect(twice.added).toEqual([]);

    const revoke = await withEvents(org, () =>
      org.call('owner', 'revokeTeamMember', { path: { teamId: team.id, userId: memberId } }),
    );
    expectOneEvent(org, revoke.res, revoke.added, {
      action: 'revokeTeamMember',
      target,
      before: added,
      after: null,
    });

    const gone = await withEvents(org, () =>
      org.call('owner', 'revokeTeamMember', { path: { teamId: team.id, userId: memberId } }),
    );
    expectError(gone.res, 404, 'member_not_found');
    expect(gone.added).toEqual([]);
  });

  it('archiveTeam records the team as it was; archiving it again records nothing', async () => {
    const team = await okBody(createTeam('archive-me'), 201);
    await okBody(
      org.call('owner', 'addTeamMember', { path: { teamId: team.id }, body: { userId: org.userIds.admin } }),
      201,
    );
    const [shown] = (await okBody(org.call('owner', 'listTeams'), 200)).teams.filter((t) => t.id === team.id);
    expect(shown?.memberCount).toBe(1);

    const { res, added } = await withEvents(org, () => org.call('owner', 'archiveTeam', { path: { teamId: team.id } }));
    expectOneEvent(org, res, added, {
      action: 'archiveTeam',
      target: { type: 'team', id: team.id },
      before: shown,
      after: null,
    });

    const again = await withEvents(org, () => org.call('owner', 'archiveTeam', { path: { teamId: team.id } }));
    expectError(again.res, 404, 'team_not_found');
    expect(again.added).toEqual([]);
  });
});

describe('the organization', () => {
  it('updateOrgSettings records the settings before and after; an unchanged value records nothing', async () => {
    const org = await freshOrg();
    const before = await okBody(org.call('owner', 'getOrgSettings'), 200);
    expect(before).toEqual({
      membersCanCreateProjects: false,
      autoJoin: null,
      tokens: { personalAllowed: true, requireExpiry: false, maxLifetimeDays: null, revokeUnusedAfterDays: null },
    });
    const { res, added } = await withEvents(org, () =>
      org.call('owner', 'updateOrgSettings', { body: { membersCanCreateProjects: true } }),
    );
    const after = await okBody(res, 200);
    expectOneEvent(org, res, added, {
      action: 'updateOrgSettings',
      target: { type: 'organization_settings', id: org.id },
      before,
      after,
    });
    const same = await withEvents(org, () =>
      org.call('owner', 'updateOrgSettings', { body: { membersCanCreateProjects: true } }),
    );
    expect(same.res.status).toBe(200);
    expect(same.added).toEqual([]);
  });

  it('`hub org create` records the organization and its OWNER; a taken slug records nothing', async () => {
    const slug = `audit-a-created-${++counter}`;
    const created = await asConsole('hub.org.create', () =>
      hub.services.organizations.create({ slug, name: 'Created here', ownerImOpenId: `${slug}-owner` }),
    );
    const cookie = await hub.login(`${slug}-owner`);
    const page = await okBody(hub.orgCall(slug, cookie, 'listAuditEvents'), 200);
    expect(page.events).toEqual([
      {
        id: expect.any(String),
        at: hub.clock.now().toISOString(),
        actor: { type: 'console', id: null, displayName: CONSOLE_ACTOR.displayName },
        action: 'hub.org.create',
        target: { type: 'organization', id: created.id, label: 'Created here' },
        summary: 'hub console created organization Created here',
        requestId: null,
        clientRequestId: null,
        changes: {
          before: null,
          after: {
            id: created.id,
            slug,
            name: 'Created here',
            status: 'ACTIVE',
            purgeAt: null,
            ownerImOpenId: `${slug}-owner`,
          },
        },
      },
    ]);

    const count = await allEventCount();
    await expect(
      asConsole('hub.org.create', () =>
        hub.services.organizations.create({ slug, name: 'Again', ownerImOpenId: 'someone-else' }),
      ),
    ).rejects.toMatchObject({ code: 'slug_taken' });
    expect(await allEventCount()).toBe(count);
  });
});

describe('the capacity policy', () => {
  /** The policy as its events record it: the limits, without what is in use (which a limit does not change). */
  const policyOf = (view: Schema<'CapacityPolicyView'>) => ({
    dimensions: view.dimensions.map(({ inUse: _inUse, ...row }) => row),
  });

  it('updateCapacityPolicy records the policy before and after; no change and a refusal record nothing', async () => {
    const org = await freshOrg();
    const before = await okBody(org.call('owner', 'getCapacityPolicy'), 200);
    const { res, added } = await withEvents(org, () =>
      org.call('owner', 'updateCapacityPolicy', { body: { limits: { teamCount: 50, runTurns: 20 } } }),
    );
    const after = await okBody(res, 200);
    expect(after.dimensions.find((d) => d.dimension === 'teamCount')?.organizationLimit).toBe(50);
    expectOneEvent(org, res, added, {
      action: 'updateCapacityPolicy',
      target: { type: 'capacity_policy', id: org.id },
      before: policyOf(before),
      after: policyOf(after),
    });

    const same = await withEvents(org, () =>
      org.call('owner', 'updateCapacityPolicy', { body: { limits: { teamCount: 50 } } }),
    );
    expect(same.res.status).toBe(200);
    expect(same.added).toEqual([]);

    const refused = await withEvents(org, () =>
      org.call('owner', 'updateCapacityPolicy', { body: { limits: { teamCount: 10, requestRate: 0 } } }),
    );
    expectError(refused.res, 422, 'capacity_below_floor');
    expect(refused.added).toEqual([]);
  });

  it('`hub capacity clear` records the policy before and after; clearing no limit records nothing', async () => {
    const org = await freshOrg();
    const before = await okBody(
      org.call('owner', 'updateCapacityPolicy', { body: { limits: { memberCount: 40 } } }),
      200,
    );
    const { res: cleared, added } = await withEvents(org, () =>
      asConsole('hub.capacity.clear', () => hub.services.capacity.clearLimit(org.id, 'memberCount')),
    );
    expect(cleared).toBe(true);
    const after = await okBody(org.call('owner', 'getCapacityPolicy'), 200);
    expect(after.dimensions.find((d) => d.dimension === 'memberCount')?.organizationLimit).toBeNull();
    expect(added).toEqual([
      {
        id: expect.any(String),
        at: expect.any(String),
        actor: { type: 'console', id: null, displayName: CONSOLE_ACTOR.displayName },
        action: 'hub.capacity.clear',
        target: { type: 'capacity_policy', id: org.id, label: null },
        summary: 'hub console lifted a capacity limit (memberCount)',
        requestId: null,
        clientRequestId: null,
        changes: { before: policyOf(before), after: policyOf(after) },
      },
    ]);

    const again = await withEvents(org, () =>
      asConsole('hub.capacity.clear', () => hub.services.capacity.clearLimit(org.id, 'memberCount')),
    );
    expect(again.res).toBe(false);
    expect(again.added).toEqual([]);
  });
});

describe('connections', () => {
  let org: OrgFixture;
  /** Every secret sent in this block; none may appear in any audit event. */
  const secrets: string[] = [];
  const secret = (label: string) => {
    const value = canary(label);
    secrets.push(value);
    return value;
  };

  beforeAll(async () => {
    org = await freshOrg();
  });

  afterAll(async () => {
    const text = JSON.stringify(await auditLog(org));
    expect(secrets.length).toBeGreaterThan(0);
    for (const value of secrets) expect(text).not.toContain(value);
  });

  const providerBody = () => ({
    baseUrl: 'https://llm.example.com/v1',
    authToken: secret('authToken'),
    vendorApiKey: secret('vendorApiKey'),
  });

  it('rotateProviderConnection records the row it created, then the row before and after a rotation', async () => {
    const target = { type: 'provider_connection', id: 'anthropic' };
    const create = await withEvents(org, () =>
      org.call('owner', 'rotateProviderConnection', { path: { providerId: 'anthropic' }, body: providerBody() }),
    );
    const created = await okBody(create.res, 200);
    expectOneEvent(org, create.res, create.added, {
      action: 'rotateProviderConnection',
      target,
      before: null,
      after: created,
    });

    hub.clock.advance(60_000);
    const rotate = await withEvents(org, () =>
      org.call('owner', 'rotateProviderConnection', { path: { providerId: 'anthropic' }, body: providerBody() }),
    );
    const rotated = await okBody(rotate.res, 200);
    expect(rotated.activeVersion).toBe(2);
    expectOneEvent(org, rotate.res, rotate.added, {
      action: 'rotateProviderConnection',
      target,
      before: created,
      after: rotated,
    });

    const invalid = await withEvents(org, () =>
      org.call('owner', 'rotateProviderConnection', {
        path: { providerId: 'anthropic' },
        body: { ...providerBody(), baseUrl: 'http://plain.example.com' },
      }),
    );
    expect(invalid.res.status).toBe(400);
    expect(invalid.added).toEqual([]);
  });

  it('disableProviderConnection records ACTIVE to DISABLED once; a second disable and 404 record nothing', async () => {
    const created = await okBody(
      org.call('owner', 'rotateProviderConnection', { path: { providerId: 'to-disable' }, body: providerBody() }),
      200,
    );
    const { res, added } = await withEvents(org, () =>
      org.call('owner', 'disableProviderConnection', { path: { providerId: 'to-disable' } }),
    );
    const disabled = await okBody(res, 200);
    expect(disabled.status).toBe('DISABLED');
    expectOneEvent(org, res, added, {
      action: 'disableProviderConnection',
      target: { type: 'provider_connection', id: 'to-disable' },
      before: created,
      after: disabled,
    });

    const again = await withEvents(org, () =>
      org.call('owner', 'disableProviderConnection', { path: { providerId: 'to-disable' } }),
    );
    expect(again.res.status).toBe(200);
    expect(again.added).toEqual([]);

    const missing = await withEvents(org, () =>
      org.call('owner', 'disableProviderConnection', { path: { providerId: 'never-connected' } }),
    );
    expectError(missing.res, 404, 'connection_not_found');
    expect(missing.added).toEqual([]);
  });

  it('`hub connection platform` records the takeover of a BYOK connection, as the console', async () => {
    const byok = await okBody(
      org.call('owner', 'rotateProviderConnection', { path: { providerId: 'taken' }, body: providerBody() }),
      200,
    );
    const { res: result, added } = await withEvents(org, () =>
      asConsole('hub.connection.platform', () =>
        hub.services.connections.rotateProvider(org.id, 'taken', providerBody(), 'platform'),
      ),
    );
    expect(result.outcome).toBe('taken_over');
    const [after] = (await okBody(org.call('owner', 'listProviderConnections'), 200)).connections.filter(
      (c) => c.providerId === 'taken',
    );
    expect(after).toMatchObject({ mode: 'PLATFORM_MANAGED', status: 'ACTIVE', activeVersion: 2 });
    expect(added).toEqual([
      {
        id: expect.any(String),
        at: expect.any(String),
        actor: { type: 'console', id: null, displayName: CONSOLE_ACTOR.displayName },
        action: 'hub.connection.platform',
        target: { type: 'provider_connection', id: 'taken', label: 'taken' },
        summary: 'hub console set the platform credentials of provider taken',
        requestId: null,
        clientRequestId: null,
        changes: { before: byok, after },
      },
    ]);

    // The organization may not touch it now: refused, and nothing recorded.
    const refused = await withEvents(org, () =>
      org.call('owner', 'rotateProviderConnection', { path: { providerId: 'taken' }, body: providerBody() }),
    );
    expectError(refused.res, 403, 'platform_managed_connection');
    expect(refused.added).toEqual([]);
  });

  it('putChatApplicationConnection and disableChatApplicationConnection record the connection', async () => {
    const none = await withEvents(org, () => org.call('owner', 'disableChatApplicationConnection'));
    expectError(none.res, 404, 'connection_not_found');
    expect(none.added).toEqual([]);

    const chatBody = () => ({
      appId: 'cli_a1b2c3d4e5f6a7b8',
      botOpenId: 'ou_bot_1',
      appSecret: secret('appSecret'),
      verificationToken: secret('verificationToken'),
      encryptKey: secret('encryptKey'),
    });
    const create = await withEvents(org, () => org.call('owner', 'putChatApplicationConnection', { body: chatBody() }));
    const created = await okBody(create.res, 200);
    const target = { type: 'chat_application_connection', id: created.id };
    expectOneEvent(org, create.res, create.added, {
      action: 'putChatApplicationConnection',
      target,
      before: null,
      after: created,
    });

    hub.clock.advance(60_000);
    const rotate = await withEvents(org, () => org.call('owner', 'putChatApplicationConnection', { body: chatBody() }));
    const rotated = await okBody(rotate.res, 200);
    expectOneEvent(org, rotate.res, rotate.added, {
      action: 'putChatApplicationConnection',
      target,
      before: created,
      after: rotated,
    });

    const disable = await withEvents(org, () => org.call('owner', 'disableChatApplicationConnection'));
    const disabled = await okBody(disable.res, 200);
    expect(disabled.status).toBe('DISABLED');
    expectOneEvent(org, disable.res, disable.added, {
      action: 'disableChatApplicationConnection',
      target,
      before: rotated,
      after: disabled,
    });

    const again = await withEvents(org, () => org.call('owner', 'disableChatApplicationConnection'));
    expect(again.res.status).toBe(200);
    expect(again.added).toEqual([]);
  });

  it('putCapabilityConnection and disableCapabilityConnection record the row, never its headers', async () => {
    const capabilityBody = (label: string) => ({
      label,
      kind: 'http' as const,
      endpointUrl: 'https://search.example.com/v1',
      headers: { Authorization: `Bearer ${secret('header')}`, 'X-Api-Key': secret('header') },
    });
    const target = { type: 'capability_connection', id: 'web-search' };
    const create = await withEvents(org, () =>
      org.call('owner', 'putCapabilityConnection', {
        path: { capabilityId: 'web-search' },
        body: capabilityBody('Web search'),
      }),
    );
    const created = await okBody(create.res, 200);
    expectOneEvent(org, create.res, create.added, {
      action: 'putCapabilityConnection',
      target,
      before: null,
      after: created,
    });

    hub.clock.advance(60_000);
    const rotate = await withEvents(org, () =>
      org.call('owner', 'putCapabilityConnection', {
        path: { capabilityId: 'web-search' },
        body: capabilityBody('Web search, renamed'),
      }),
    );
    const rotated = await okBody(rotate.res, 200);
    expect(rotated.label).toBe('Web search, renamed');
    expectOneEvent(org, rotate.res, rotate.added, {
      action: 'putCapabilityConnection',
      target,
      before: created,
      after: rotated,
    });

    const duplicate = await withEvents(org, () =>
      org.call('owner', 'putCapabilityConnection', {
        path: { capabilityId: 'web-search' },
        body: { ...capabilityBody('x'), headers: { 'X-A': secret('header'), 'x-a': secret('header') } },
      }),
    );
    expect(duplicate.res.status).toBe(400);
    expect(duplicate.added).toEqual([]);

    const disable = await withEvents(org, () =>
      org.call('owner', 'disableCapabilityConnection', { path: { capabilityId: 'web-search' } }),
    );
    const disabled = await okBody(disable.res, 200);
    expectOneEvent(org, disable.res, disable.added, {
      action: 'disableCapabilityConnection',
      target,
      before: rotated,
      after: disabled,
    });

    const missing = await withEvents(org, () =>
      org.call('owner', 'disableCapabilityConnection', { path: { capabilityId: 'nothing-here' } }),
    );
    expectError(missing.res, 404, 'connection_not_found');
    expect(missing.added).toEqual([]);
  });
});

describe('concurrent changes', () => {
  it('two updates of one team at once record two events, chained: the later before is the earlier after', async () => {
    const org = await freshOrg();
    const team = await okBody(org.call('owner', 'createTeam', { body: { slug: 'raced', name: 'Raced' } }), 201);
    const { res, added } = await withEvents(org, () =>
      Promise.all(
        ['First', 'Second'].map((name) =>
          org.call('owner', 'updateTeam', { path: { teamId: team.id }, body: { name } }),
        ),
      ),
    );
    for (const r of res) expect(r.status, r.text).toBe(200);
    expect(added).toHaveLength(2);
    const [second, first] = added as [AuditEvent, AuditEvent];
    expect(first.changes.before).toEqual(team);
    expect(second.changes.before).toEqual(first.changes.after);
  });

  it('two disables of one connection at once record one event', async () => {
    const org = await freshOrg();
    await okBody(
      org.call('owner', 'putChatApplicationConnection', {
        body: { appId: 'cli_raced_0123456789', botOpenId: 'ou_bot', appSecret: canary('appSecret') },
      }),
      200,
    );
    const { res, added } = await withEvents(org, () =>
      Promise.all([1, 2].map(() => org.call('owner', 'disableChatApplicationConnection'))),
    );
    for (const r of res) expect(r.status, r.text).toBe(200);
    expect(added.map((event) => event.action)).toEqual(['disableChatApplicationConnection']);
  });
});

describe('who the events name', () => {
  it('an ADMIN changing a team is the actor of its event', async () => {
    const org = await freshOrg();
    const { res, added } = await withEvents(org, () =>
      org.call('admin', 'createTeam', { body: { slug: 'by-admin', name: 'By admin' } }),
    );
    const team = await okBody(res, 201);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      actor: { type: 'user', id: await userIdOf(hub, `${org.slug}-admin`) },
      action: 'createTeam',
      target: { type: 'team', id: team.id },
      requestId: res.headers.get('x-request-id'),
      clientRequestId: null,
    });
  });
});
