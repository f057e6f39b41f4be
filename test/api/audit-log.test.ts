import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { changesState, listOperations } from '../../src/http/openapi-document.js';
import { fillPath, type OrgCallArgs, type OrgOperationId } from '../support/api-client.js';
import { expectError, expectOk, okBody } from '../support/assertions.js';
import { everyRow } from '../support/every-row.js';
import { TestDnsServer } from '../support/dns-server.js';
import { type OrgActor, type OrgFixture, seedOrg } from '../support/org-fixture.js';
import { TEST_ORIGIN, TestHub } from '../support/test-hub.js';
import { TestOpenIdProvider } from '../support/openid-provider.js';
import { runLine } from '../support/usage-runs.js';

/**
 * The audit log, derived from openapi.yaml: every operation that changes state writes exactly
 * one event when it succeeds — with its operationId, its actor and the response's request id —
 * and none when it is refused. A mutating operation added to the contract without a scenario
 * here fails the first test.
 */

let hub: TestHub;
let dns: TestDnsServer;
/** What an organization's identity providers are checked against (discovery) before they are stored. */
let idp: TestOpenIdProvider;
let org: OrgFixture;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

/**
 * The operations that change state: every method but GET, the session's own logout aside, and the
 * invitee's accepts (by link and by id), whose organization is not in their path and whose actor is
 * no member yet (their events are checked in invitations.test.ts), and the removal of one's own
 * sign-in, recorded in each of the person's organizations (test/identity/linking-authority.test.ts),
 * and the person's own name and sessions, in no organization's log.
 * A scenario that leaves the organization changed for the next (its deletion) undoes it in `after`.
 */
const NOT_HERE = [
  'logout',
  'acceptInvitation',
  'acceptMyInvitation',
  'removeMyIdentity',
  // The recipient's accept of the ownership and a member's own leave: the owner makes neither (their
  // events are checked in organization-lifecycle.test.ts).
  'acceptOwnershipTransfer',
  'leaveOrganization',
  'updateMe',
  'revokeMySession',
  'revokeOtherSessions',
  // The host's runtime resolving a connection's credentials changes nothing: no event, by design
  // (test/api/runtime-api.test.ts).
  'resolveRuntimeCredential',
];
/** Targets with no name of their own: their events' `target.label` is null. */
const NAMELESS_TARGETS = ['capacity_policy', 'organization_settings', 'chat_application_connection', 'usage'];
const MUTATING = listOperations().filter((op) => changesState(op) && !NOT_HERE.includes(op.operationId));

interface Call {
  params?: Record<string, string>;
  body?: unknown;
  /** Who makes the call; the owner unless the rule asks for a grant holder. */
  actor?: OrgActor;
  /** Undoes what the call left that would stop the scenarios after it, once its event is checked. */
  after?: () => Promise<unknown>;
}

/** A call as the owner that must succeed; its body typed by the operation's success response. */
const create = <O extends OrgOperationId>(operationId: O, ...input: OrgCallArgs<O>) =>
  okBody(org.call('owner', operationId, ...input));
const team = async () => (await create('createTeam', { body: { slug: unique('team'), name: 'Team' } })).id;
const folder = async () => (await create('createFolder', { body: { name: unique('Folder') } })).id;
const project = async () => (await create('createProject', { body: { name: unique('Project') } })).id;
const member = async () => (await create('addMember', { body: { imOpenId: unique('ou'), role: 'MEMBER' } })).userId;
const libraryFolder = async () => (await create('createAgentLibraryFolder', { body: { name: unique('Shelf') } })).id;
const role = async () => {
  const roleId = unique('role');
  await create('putAgentRole', { path: { roleId }, body: { label: roleId } });
  return roleId;
};
const skill = async () => {
  const name = unique('skill');
  await create('installAgentSkill', {
    path: { name },
    body: { version: '1', files: [{ path: 'SKILL.md', content: `---\nname: ${name}\n---\n` }] },
  });
  return name;
};
const provider = async () => {
  const providerId = unique('prov');
  await create('rotateProviderConnection', {
    path: { providerId },
    body: { baseUrl: 'https://api.example.com', authToken: 'sk-audit' },
  });
  return providerId;
};
const capability = async () => {
  const capabilityId = unique('cap');
  await create('putCapabilityConnection', {
    path: { capabilityId },
    body: { label: 'Search', kind: 'http', endpointUrl: 'https://s.example.com' },
  });
  return capabilityId;
};
const chatApp = () =>
  create('putChatApplicationConnection', { body: { appId: 'cli_app', appSecret: 'app-secret', botOpenId: 'ou_bot' } });
/** A public address literal: saved without a DNS lookup, and never called (no dispatcher runs here). */
const webhook = async () =>
  (await okBody(org.call('owner', 'createWebhook', { body: { url: 'https://93.184.216.34/h', events: ['*'] } }), 201))
    .id;
const budgetBody = () => ({
  name: unique('Budget'),
  scope: { type: 'organization' },
  metric: 'costUsd',
  amount: 10,
  period: 'month',
});
const budget = async () => (await okBody(org.call('owner', 'createBudget', { body: budgetBody() as never }), 201)).id;
/** A pending domain of the organization, its TXT record published when `published`. */
const domain = async (published = false) => {
  const added = await create('addDomain', { body: { domain: `${unique('audit')}.example` } });
  if (published) dns.publish(added.verification.name, added.verification.value);
  return added.id;
};
/** A request for READ on a project `manager` created, from `asker`; its path parameters. */
const accessRequest = async (manager: OrgActor, asker: OrgActor) => {
  const projectId = (await okBody(org.call(manager, 'createProject', { body: { name: unique('Asked') } }))).id;
  const request = await okBody(
    org.call(asker, 'createAccessRequest', { path: { projectId }, body: { level: 'READ', reason: 'Reviews' } }),
    201,
  );
  return { projectId, requestId: request.id };
};
const token = async () => (await create('createApiToken', { body: { name: unique('tok'), scopes: ['org:read'] } })).id;
const usagePolicy = async () =>
  (await create('createPolicy', { body: { scope: { type: 'team', id: await team() }, allow: {} } })).id;
const serviceAccount = async () => (await create('createServiceAccount', { body: { name: unique('robot') } })).id;

/** For each mutating operation, a call that succeeds and changes something. */
const SCENARIOS: Record<string, () => Promise<Call>> = {
  updateOrgSettings: async () => ({
    body: { membersCanCreateProjects: !(await hub.services.organizations.membersCanCreateProjects(org.id)) },
  }),
  addMember: async () => ({ body: { imOpenId: unique('ou-new'), role: 'MEMBER' } }),
  updateMemberRole: async () => ({ params: { userId: await member() }, body: { role: 'ADMIN' } }),
  revokeMember: async () => ({ params: { userId: await member() } }),
  createInvitation: async () => ({ body: { role: 'MEMBER' } }),
  revokeInvitation: async () => ({
    params: { invitationId: (await create('createInvitation', { body: { role: 'MEMBER' } })).id },
  }),
  createTeam: async () => ({ body: { slug: unique('new-team'), name: 'New' } }),
  updateTeam: async () => ({ params: { teamId: await team() }, body: { name: 'Renamed' } }),
  archiveTeam: async () => ({ params: { teamId: await team() } }),
  addTeamMember: async () => ({ params: { teamId: await team() }, body: { userId: org.userIds.member } }),
  revokeTeamMember: async () => {
    const teamId = await team();
    await create('addTeamMember', { path: { teamId }, body: { userId: org.userIds.member } });
    return { params: { teamId, userId: org.userIds.member } };
  },
  createFolder: async () => ({ body: { name: unique('New folder') } }),
  updateFolder: async () => ({ params: { folderId: await folder() }, body: { name: unique('Renamed') } }),
  archiveFolder: async () => ({ params: { folderId: await folder() } }),
  createProject: async () => ({ body: { name: unique('New project') } }),
  renameProject: async () => ({ params: { projectId: await project() }, body: { name: unique('Renamed') } }),
  moveProject: async () => ({ params: { projectId: await project() }, body: { folderId: await folder() } }),
  archiveProject: async () => ({ params: { projectId: await project() } }),
  archiveProjectBinding: async () => {
    const projectId = await project();
    await hub.services.projects.bindChat(org.id, projectId, unique('oc-chat'));
    return { params: { projectId } };
  },
  putProjectTeamAccess: async () => {
    const teamId = await team();
    return { params: { projectId: await project() }, body: { teamId, role: 'READ' } };
  },
  deleteProjectTeamAccess: async () => {
    const [projectId, teamId] = [await project(), await team()];
    await create('putProjectTeamAccess', { path: { projectId }, body: { teamId, role: 'READ' } });
    return { params: { projectId, teamId } };
  },
  rotateProviderConnection: async () => ({
    params: { providerId: unique('prov') },
    body: { baseUrl: 'https://api.example.com', authToken: 'sk-rotate-canary' },
  }),
  disableProviderConnection: async () => ({ params: { providerId: await provider() } }),
  putChatApplicationConnection: async () => ({
    body: { appId: 'cli_app', appSecret: 'chat-secret-canary', botOpenId: 'ou_bot' },
  }),
  disableChatApplicationConnection: async () => {
    await chatApp();
    return {};
  },
  putCapabilityConnection: async () => ({
    params: { capabilityId: unique('cap') },
    body: { label: 'Docs', kind: 'mcp', endpointUrl: 'https://mcp.example.com', headers: { 'X-Key': 'header-canary' } },
  }),
  disableCapabilityConnection: async () => ({ params: { capabilityId: await capability() } }),
  updateCapacityPolicy: async () => ({ body: { limits: { teamCount: 500 + counter++ } } }),
  putAgentRole: async () => ({ params: { roleId: unique('role') }, body: { label: 'Reviewer' } }),
  updateAgentRole: async () => ({ params: { roleId: await role() }, body: { disabled: true } }),
  putAgentRoleSkills: async () => ({ params: { roleId: await role() }, body: { skillNames: [await skill()] } }),
  installAgentSkill: async () => {
    const name = unique('new-skill');
    return {
      params: { name },
      body: { version: '1', files: [{ path: 'SKILL.md', content: `---\nname: ${name}\n---\n` }] },
    };
  },
  updateAgentSkill: async () => ({ params: { name: await skill() }, body: { description: unique('Described') } }),
  createAgentLibraryFolder: async () => ({ body: { name: unique('New shelf') } }),
  updateAgentLibraryFolder: async () => ({ params: { folderId: await libraryFolder() }, body: { name: unique('R') } }),
  archiveAgentLibraryFolder: async () => ({ params: { folderId: await libraryFolder() } }),
  createApiToken: async () => ({ body: { name: unique('token'), scopes: ['org:read'] } }),
  revokeApiToken: async () => ({ params: { tokenId: await token() } }),
  rotateApiToken: async () => ({ params: { tokenId: await token() }, body: { overlapHours: 1 } }),
  createServiceAccount: async () => ({ body: { name: unique('robot'), role: 'ADMIN' } }),
  ingestUsageRuns: async () => ({
    body: [runLine(await project(), unique('audit-session'), '2026-11-20T10:00:00Z')],
  }),
  updateServiceAccount: async () => ({
    params: { serviceAccountId: await serviceAccount() },
    body: { name: unique('r') },
  }),
  disableServiceAccount: async () => ({ params: { serviceAccountId: await serviceAccount() } }),
  enableServiceAccount: async () => {
    const serviceAccountId = await serviceAccount();
    await create('disableServiceAccount', { path: { serviceAccountId } });
    return { params: { serviceAccountId } };
  },
  deleteServiceAccount: async () => ({ params: { serviceAccountId: await serviceAccount() } }),
  createWebhook: async () => ({ body: { url: 'https://93.184.216.34/hook', events: ['createTeam'] } }),
  updateWebhook: async () => ({ params: { webhookId: await webhook() }, body: { description: unique('Described') } }),
  deleteWebhook: async () => ({ params: { webhookId: await webhook() } }),
  rotateWebhookSecret: async () => ({ params: { webhookId: await webhook() } }),
  testWebhook: async () => ({ params: { webhookId: await webhook() } }),
  createBudget: async () => ({ body: budgetBody() }),
  updateBudget: async () => ({ params: { budgetId: await budget() }, body: { amount: 20 } }),
  deleteBudget: async () => ({ params: { budgetId: await budget() } }),
  createPolicy: async () => ({ body: { scope: { type: 'team', id: await team() }, allow: { models: [] } } }),
  updatePolicy: async () => ({ params: { policyId: await usagePolicy() }, body: { allow: { providers: [] } } }),
  deletePolicy: async () => ({ params: { policyId: await usagePolicy() } }),
  addDomain: async () => ({ body: { domain: `${unique('added')}.example` } }),
  verifyDomain: async () => ({ params: { domainId: await domain(true) } }),
  deleteDomain: async () => ({ params: { domainId: await domain() } }),
  renameOrganization: async () => ({ body: { name: unique('Audited') } }),
  deleteOrganization: async () => ({ after: () => hub.services.lifecycle.restore(org.id) }),
  restoreOrganization: async () => {
    await hub.services.lifecycle.delete(org.id);
    return {};
  },
  createOwnershipTransfer: async () => ({
    body: { toUserId: org.userIds.admin },
    after: async () => {
      const [pending] = await hub.services.lifecycle.listTransfers(org.id);
      await okBody(org.call('owner', 'cancelOwnershipTransfer', { path: { transferId: pending!.id } }));
    },
  }),
  cancelOwnershipTransfer: async () => {
    const offered = await hub.services.lifecycle.offer(org.id, org.userIds.owner, org.userIds.admin);
    return { params: { transferId: offered.id } };
  },
  signOutMember: async () => ({ params: { userId: await member() } }),
  createAccessRequest: async () => ({
    params: { projectId: (await okBody(org.call('admin', 'createProject', { body: { name: unique('Ask') } }))).id },
    body: { level: 'READ', reason: 'I review it' },
  }),
  approveAccessRequest: async () => ({ params: await accessRequest('owner', 'admin'), body: { level: 'EDIT' } }),
  denyAccessRequest: async () => ({ params: await accessRequest('owner', 'admin') }),
  withdrawAccessRequest: async () => ({ params: await accessRequest('admin', 'owner') }),
  updateDomain: async () => {
    const domainId = await domain(true);
    await okBody(org.call('owner', 'verifyDomain', { path: { domainId } }));
    return { params: { domainId }, body: { enforceSso: { providerId: await identityProvider() } } };
  },
  createOrgIdentityProvider: async () => ({ body: identityProviderBody() }),
  updateOrgIdentityProvider: async () => ({ params: { providerId: await identityProvider() }, body: { label: 'New' } }),
  deleteOrgIdentityProvider: async () => ({ params: { providerId: await identityProvider() } }),
  testOrgIdentityProvider: async () => ({ params: { providerId: await identityProvider() } }),
  redeliverWebhookDelivery: async () => {
    const webhookId = await webhook();
    const ping = await okBody(org.call('owner', 'testWebhook', { path: { webhookId } }), 201);
    return { params: { webhookId, deliveryId: ping.id } };
  },
};

const identityProviderBody = () => ({
  id: unique('audited-sso'),
  kind: 'oidc',
  label: 'Audited SSO',
  issuer: idp.issuer,
  clientId: 'hub',
  clientSecret: 'audited-secret',
});
const identityProvider = async () =>
  (await okBody(org.call('owner', 'createOrgIdentityProvider', { body: identityProviderBody() as never }), 201)).id;

const eventCount = async () =>
  Number((await hub.services.db('audit_events').where({ organization_id: org.id }).count({ n: '*' }).first())?.n);

async function perform(operationId: string, call: Call, actor: OrgActor) {
  const op = MUTATING.find((o) => o.operationId === operationId)!;
  const path = fillPath(op.path, { orgSlug: org.slug, ...call.params }).slice(`/api/org/${org.slug}`.length);
  return org.api(actor, op.method.toUpperCase(), path, call.body);
}

beforeAll(async () => {
  // Each scenario sends several requests: more than the default 600 a minute in all.
  dns = await TestDnsServer.start();
  idp = await TestOpenIdProvider.start({ clientId: 'hub', clientSecret: 's', redirectUris: [`${TEST_ORIGIN}/cb`] });
  hub = await TestHub.start({
    config: {
      ceilings: loadConfig({ HUB_CEILING_REQUEST_RATE: '1000000' }).ceilings,
      dnsServers: [dns.address],
      outboundAllowPrivate: true,
    },
  });
  org = await seedOrg(hub, 'audited');
});
afterAll(async () => {
  await hub.stop();
  await dns.stop();
  await idp?.stop();
});

describe('every mutating operation of openapi.yaml', () => {
  it('has a scenario here', () => {
    expect(MUTATING.map((o) => o.operationId).filter((id) => !SCENARIOS[id])).toEqual([]);
  });

  for (const { operationId } of MUTATING) {
    it(`${operationId}: one event when it succeeds, none when it is refused`, async () => {
      const call = await SCENARIOS[operationId]!();
      const refusedBefore = await eventCount();
      const refused = await perform(operationId, call, 'member');
      // The member may do these too (a withdrawal of another's request answers 404, checked elsewhere).
      const memberMay = [
        'createApiToken',
        'revokeApiToken',
        'rotateApiToken',
        'createProject',
        'createAccessRequest',
        'withdrawAccessRequest',
      ].includes(operationId);
      if (!memberMay) {
        expect(refused.status, refused.text).toBe(403);
        expect(await eventCount()).toBe(refusedBefore);
      }
      const call2 = memberMay ? await SCENARIOS[operationId]!() : call;
      const before = await eventCount();
      const res = await perform(operationId, call2, 'owner');
      expect(res.status, res.text).toBeLessThan(300);
      expect(await eventCount()).toBe(before + 1);
      const [event] = await okBody(org.call('owner', 'listAuditEvents', { query: { limit: 1 } })).then((b) => b.events);
      expect(event).toMatchObject({
        action: operationId,
        actor: { type: 'user', id: org.userIds.owner, displayName: 'Owner of audited' },
        requestId: res.headers.get('x-request-id'),
        clientRequestId: null,
        at: hub.clock.now().toISOString(),
      });
      expect(event!.target.type).toMatch(/^[a-z_]+$/);
      expect(event!.changes.before ?? event!.changes.after).not.toBeNull();
      // Named as it was when written, and read as a sentence from its own template.
      if (!NAMELESS_TARGETS.includes(event!.target.type)) expect(event!.target.label).toEqual(expect.any(String));
      expect(event!.summary).toMatch(/^Owner of audited [a-z]/);
      expect(event!.summary).not.toContain(operationId);
      await call2.after?.();
    });
  }
});

describe('request ids', () => {
  const latestEvent = async () =>
    (await okBody(org.call('owner', 'listAuditEvents', { query: { limit: 1 } }))).events[0]!;

  it("record the server's own id, with the caller's well-formed X-Request-Id kept beside it", async () => {
    const body = { slug: unique('team'), name: 'Team' };
    const res = await org.call('owner', 'createTeam', { body, headers: { 'x-request-id': 'abc-123' } });
    expectOk(res, 201);
    const echoed = res.headers.get('x-request-id');
    expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
    expect(await latestEvent()).toMatchObject({ action: 'createTeam', requestId: echoed, clientRequestId: 'abc-123' });
  });

  it('ignore a malformed caller id', async () => {
    const body = { slug: unique('team'), name: 'Team' };
    const res = await org.call('owner', 'createTeam', { body, headers: { 'x-request-id': 'has spaces' } });
    expectOk(res, 201);
    const echoed = res.headers.get('x-request-id');
    expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
    expect(await latestEvent()).toMatchObject({ action: 'createTeam', requestId: echoed, clientRequestId: null });
  });
});

describe('calls that fail', () => {
  it('write nothing: a conflict, a missing target, a validation error, an anonymous call', async () => {
    const slug = unique('taken');
    await create('createTeam', { body: { slug, name: 'First' } });
    const before = await eventCount();
    expectError(await org.api('owner', 'POST', '/teams', { slug, name: 'Second' }), 409, 'slug_taken');
    expectError(await org.api('owner', 'POST', '/teams/no-such-team/archive'), 404, 'team_not_found');
    expectError(await org.api('owner', 'POST', '/teams', { slug: 'BAD SLUG', name: 'x' }), 400, 'validation_failed');
    const anonymous = await hub.request('POST', `/api/org/${org.slug}/teams`, {
      body: { slug: unique('a'), name: 'A' },
    });
    expectError(anonymous, 401, 'unauthenticated');
    expect(await eventCount()).toBe(before);
  });
});

describe('secrets', () => {
  it('never reach the audit table: header values, tokens and app secrets are redacted or absent', async () => {
    const created = await okBody(
      org.call('owner', 'createApiToken', { body: { name: 'canary', scopes: ['org:read'] } }),
      201,
    );
    const rows = await everyRow(hub);
    const audit = JSON.stringify(await hub.services.db('audit_events').select());
    for (const secret of [
      'sk-rotate-canary',
      'chat-secret-canary',
      'header-canary',
      'sk-audit',
      'app-secret',
      created.token,
    ]) {
      expect(audit).not.toContain(secret);
      expect(rows).not.toContain(secret);
    }
  });
});

describe('listing events', () => {
  it('filters by action, target, actor and time window', async () => {
    const teamId = await team();
    await create('updateTeam', { path: { teamId }, body: { name: 'Filtered' } });
    const byTarget = await okBody(
      org.call('owner', 'listAuditEvents', { query: { targetType: 'team', targetId: teamId } }),
    );
    expect(byTarget.events.map((e) => e.action)).toEqual(['updateTeam', 'createTeam']);
    const byAction = await okBody(
      org.call('owner', 'listAuditEvents', { query: { action: 'updateTeam', limit: 1000 } }),
    );
    expect(new Set(byAction.events.map((e) => e.action))).toEqual(new Set(['updateTeam']));
    const byActor = await okBody(
      // Someone who never acted.
      org.call('owner', 'listAuditEvents', { query: { actorId: await member(), limit: 1000 } }),
    );
    expect(byActor.events).toEqual([]);
    hub.clock.advance(60_000);
    const from = hub.clock.now().toISOString();
    await create('updateTeam', { path: { teamId }, body: { name: 'Later' } });
    const window = await okBody(org.call('owner', 'listAuditEvents', { query: { from } }));
    expect(window.events.map((e) => e.action)).toEqual(['updateTeam']);
    const before = await okBody(org.call('owner', 'listAuditEvents', { query: { to: from, targetId: teamId } }));
    expect(before.events).toHaveLength(2);
  });

  it('pages newest first with cursors that stay put while events are written', async () => {
    const all = await okBody(org.call('owner', 'listAuditEvents', { query: { limit: 1000 } }));
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await okBody(
        org.call('owner', 'listAuditEvents', { query: { limit: 7, ...(cursor ? { cursor } : {}) } }),
      );
      seen.push(...page.events.map((e) => e.id));
      // Changes made between two pages land before the first page, never in the ones still to come.
      await team();
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all.events.map((e) => e.id));
  });

  it('is for org admins, and answers 400 for a cursor it did not issue', async () => {
    expectError(await org.call('member', 'listAuditEvents'), 403, 'org_admin_required');
    expectError(await org.call('owner', 'listAuditEvents', { query: { cursor: 'bm9wZQ' } }), 400, 'validation_failed');
    expectOk(await org.call('admin', 'listAuditEvents'));
  });
});
