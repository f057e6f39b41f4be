import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, okBody } from '../support/assertions.js';
import type { OrgCallArgs, OrgOperationId } from '../support/api-client.js';
import { TEST_ORIGIN, TestHub } from '../support/test-hub.js';
import { TestOpenIdProvider } from '../support/openid-provider.js';
import { installWriteCounter, REQUEST_BOOKKEEPING, type WriteCounter } from '../support/write-counter.js';
import { fullScans, recordedInto } from '../support/full-scans.js';
import type { CapturedQuery } from '../../bench/lib/query-plan.js';
import type { Scope } from '../../src/api-tokens/scopes.js';
import { listOperations } from '../../src/http/openapi-document.js';
import { runLine } from '../support/usage-runs.js';

/**
 * Every operation of the organization-structure area, called by every kind of caller, with
 * the expected status and error code; a denied call must leave the database as it was.
 */

type Actor =
  | 'anonymous'
  | 'otherOrgOwner'
  | 'memberNoGrant'
  | 'memberRead'
  | 'memberEdit'
  | 'memberManageTeam'
  | 'memberManageDirect'
  | 'admin'
  | 'owner';
const ACTORS: Actor[] = [
  'anonymous',
  'otherOrgOwner',
  'memberNoGrant',
  'memberRead',
  'memberEdit',
  'memberManageTeam',
  'memberManageDirect',
  'admin',
  'owner',
];
const MEMBERS: Actor[] = ['memberNoGrant', 'memberRead', 'memberEdit', 'memberManageTeam', 'memberManageDirect'];
const IM: Record<Exclude<Actor, 'anonymous'>, string> = {
  otherOrgOwner: 'globex-owner',
  memberNoGrant: 'm-none',
  memberRead: 'm-read',
  memberEdit: 'm-edit',
  memberManageTeam: 'm-manage-team',
  memberManageDirect: 'm-manage-direct',
  admin: 'admin-1',
  owner: 'owner-1',
};

type Outcome = [status: number, code?: string];
type Expectations = Record<Actor, Outcome>;

let hub: TestHub;
/** The OpenID Provider an organization's identity providers are checked against (discovery). */
let idp: TestOpenIdProvider;
const cookies = {} as Record<Actor, string | undefined>;
const userIds = {} as Record<string, string>;
let sharedProject: string;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

/** A raw request to acme, for the operations a matrix row names at run time. */
const as = (actor: Actor, method: string, path: string, body?: unknown) =>
  hub.request(method, `/api/org/acme${path}`, { cookie: cookies[actor], body });

/** A typed call of one of acme's operations as one of the actors. */
const call = <O extends OrgOperationId>(actor: Actor, operationId: O, ...input: OrgCallArgs<O>) =>
  hub.orgCall('acme', cookies[actor], operationId, ...input);

/** A project created by memberManageDirect, with READ/EDIT/MANAGE given to the three teams. */
async function grantedProject(): Promise<string> {
  const project = await okBody(call('memberManageDirect', 'createProject', { body: { name: unique('Project') } }));
  for (const [teamSlug, role] of [
    ['team-read', 'READ'],
    ['team-edit', 'EDIT'],
    ['team-manage', 'MANAGE'],
  ] as const) {
    await okBody(
      call('memberManageDirect', 'putProjectTeamAccess', { path: { projectId: project.id }, body: { teamSlug, role } }),
    );
  }
  return project.id;
}

const freshMember = async () =>
  (await okBody(call('owner', 'addMember', { body: { imOpenId: unique('ou-target'), role: 'MEMBER' } }))).userId;
const freshTeam = async () =>
  (await okBody(call('owner', 'createTeam', { body: { slug: unique('t'), name: 'Target team' } }))).id;
const freshInvitation = async () =>
  (await okBody(call('owner', 'createInvitation', { body: { role: 'MEMBER' } }), 201)).id;
/** A public address literal: saved without a DNS lookup, and never called (no dispatcher runs here). */
const WEBHOOK_URL = 'https://93.184.216.34/hook';
const freshBudget = async () =>
  (
    await okBody(
      call('owner', 'createBudget', {
        body: { name: 'Spend', scope: { type: 'organization' }, metric: 'costUsd', amount: 10, period: 'month' },
      }),
      201,
    )
  ).id;
const freshWebhook = async () =>
  (await okBody(call('owner', 'createWebhook', { body: { url: WEBHOOK_URL, events: ['createTeam'] } }), 201)).id;
const freshDomain = async () =>
  (await okBody(call('owner', 'addDomain', { body: { domain: `${unique('d')}.example` } }), 201)).id;
/** A domain already verified (bound as the operator does): verifying it again asks no DNS server. */
async function verifiedDomain(): Promise<string> {
  const id = await freshDomain();
  const row = await hub.services.db('organization_domains').where({ id }).first();
  await hub.services.domains.bind(row.organization_id as string, row.domain as string);
  return id;
}
async function freshDelivery(): Promise<string> {
  const webhookId = await freshWebhook();
  const delivery = await okBody(call('owner', 'testWebhook', { path: { webhookId } }), 201);
  return `/webhooks/${webhookId}/deliveries/${delivery.id}`;
}
/** An identity provider of acme's own, connected by its owner. */
async function freshIdentityProvider(): Promise<string> {
  const id = unique('acme-sso');
  const body = { id, kind: 'oidc' as const, label: 'Acme SSO', issuer: idp.issuer, clientId: 'hub', clientSecret: 's' };
  await okBody(call('owner', 'createOrgIdentityProvider', { body }), 201);
  return id;
}
/** A usage policy on a team of its own (one policy per scope). */
const freshPolicy = async () =>
  (
    await okBody(
      call('owner', 'createPolicy', {
        body: { scope: { type: 'team', id: await freshTeam() }, allow: { models: [] } },
      }),
      201,
    )
  ).id;
const freshFolder = async () => (await okBody(call('owner', 'createFolder', { body: { name: unique('Folder') } }))).id;
const freshServiceAccount = async () =>
  (await okBody(call('owner', 'createServiceAccount', { body: { name: unique('robot') } }), 201)).id;

/** Rows written to any table since the counter was installed; a denied call must not add one. */
let writes: WriteCounter;

const freshLibraryFolder = async () =>
  (await okBody(call('owner', 'createAgentLibraryFolder', { body: { name: unique('Lib') } }), 201)).id;
async function freshRole(): Promise<string> {
  const roleId = unique('role');
  await okBody(call('owner', 'putAgentRole', { path: { roleId }, body: { label: roleId } }));
  return roleId;
}
async function freshProvider(): Promise<string> {
  const providerId = unique('prov');
  await okBody(
    call('owner', 'rotateProviderConnection', {
      path: { providerId },
      body: { baseUrl: 'https://api.example.com', authToken: 'sk-x' },
    }),
  );
  return providerId;
}
async function freshCapability(): Promise<string> {
  const capabilityId = unique('cap');
  await okBody(
    call('owner', 'putCapabilityConnection', {
      path: { capabilityId },
      body: { label: 'Search', kind: 'http', endpointUrl: 'https://search.example.com' },
    }),
  );
  return capabilityId;
}

/** A skill of acme, installed by its owner under a name of its own. */
async function freshSkill(): Promise<string> {
  const name = unique('skill');
  await okBody(call('owner', 'installAgentSkill', { path: { name }, body: skillBody(name) }));
  return name;
}
const skillBody = (name: string, version = '1.0.0') => ({
  version,
  files: [{ path: 'SKILL.md', content: `---\nname: ${name}\ndescription: Reviews code\n---\n` }],
});
/** A second OWNER of acme, so that demoting or revoking it leaves acme an OWNER. */
async function freshOwner(): Promise<string> {
  const userId = await freshMember();
  await okBody(call('owner', 'updateMemberRole', { path: { userId }, body: { role: 'OWNER' } }));
  return userId;
}
const CHAT_APPLICATION = { appId: 'cli_a1b2c3d4e5f6g7h8', appSecret: 'app-secret', botOpenId: 'ou_bot' };

interface Row {
  op: string;
  method: string;
  /** Makes whatever the call needs and returns its path (under /api/org/acme) and body. */
  prepare: () => Promise<{ path: string; body?: unknown }>;
  expect: Expectations;
  /** A person's own act, which no API token may do (`token_scope_required` whatever its scopes). */
  tokenless?: true;
}

/** A pending request of memberNoGrant for a fresh project memberManageDirect manages; its path. */
async function pendingRequest(): Promise<string> {
  const projectId = await grantedProject();
  const request = await okBody(
    call('memberNoGrant', 'createAccessRequest', {
      path: { projectId },
      body: { level: 'READ', reason: 'Reviews' },
    }),
    201,
  );
  return `/projects/${projectId}/access-requests/${request.id}`;
}

const outcomes = (success: number, denied: (actor: Actor) => Outcome | undefined): Expectations =>
  Object.fromEntries(
    ACTORS.map((actor) => {
      if (actor === 'anonymous') return [actor, [401, 'unauthenticated']];
      if (actor === 'otherOrgOwner') return [actor, [404, 'org_not_found']];
      return [actor, denied(actor) ?? [success]];
    }),
  ) as Expectations;

const orgAdminOnly = (success: number) =>
  outcomes(success, (a) => (MEMBERS.includes(a) ? [403, 'org_admin_required'] : undefined));
const anyMember = (success: number) => outcomes(success, () => undefined);
/** What only an OWNER may do: an ADMIN gets owner_required, a MEMBER still org_admin_required. */
const ownerOnly = (success: number) =>
  outcomes(success, (a) =>
    MEMBERS.includes(a) ? [403, 'org_admin_required'] : a === 'admin' ? [403, 'owner_required'] : undefined,
  );
const projectRead = (success: number) =>
  outcomes(success, (a) => (a === 'memberNoGrant' ? [403, 'project_access_denied'] : undefined));
const projectManage = (success: number) =>
  outcomes(success, (a) =>
    ['memberNoGrant', 'memberRead', 'memberEdit', 'admin', 'owner'].includes(a)
      ? [403, 'project_manage_required']
      : undefined,
  );

const rows: Row[] = [
  { op: 'getOrganization', method: 'GET', prepare: async () => ({ path: '' }), expect: anyMember(200) },
  { op: 'getOrgSettings', method: 'GET', prepare: async () => ({ path: '/settings' }), expect: anyMember(200) },
  {
    op: 'updateOrgSettings',
    method: 'PATCH',
    prepare: async () => ({ path: '/settings', body: { membersCanCreateProjects: false } }),
    expect: orgAdminOnly(200),
  },
  { op: 'listMembers', method: 'GET', prepare: async () => ({ path: '/members' }), expect: orgAdminOnly(200) },
  {
    op: 'addMember',
    method: 'POST',
    prepare: async () => ({ path: '/members', body: { imOpenId: unique('ou-new'), role: 'MEMBER' } }),
    expect: orgAdminOnly(201),
  },
  {
    op: 'listProjects',
    method: 'GET',
    prepare: async () => ({ path: '/projects?unmanaged=true' }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'updateMemberRole',
    method: 'PATCH',
    prepare: async () => ({ path: `/members/${await freshMember()}`, body: { role: 'ADMIN' } }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'revokeMember',
    method: 'POST',
    prepare: async () => ({ path: `/members/${await freshMember()}/revoke` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'addMember (role OWNER)',
    method: 'POST',
    prepare: async () => ({ path: '/members', body: { imOpenId: unique('ou-new-owner'), role: 'OWNER' } }),
    expect: ownerOnly(201),
  },
  {
    op: 'updateMemberRole (to OWNER)',
    method: 'PATCH',
    prepare: async () => ({ path: `/members/${await freshMember()}`, body: { role: 'OWNER' } }),
    expect: ownerOnly(200),
  },
  {
    op: 'updateMemberRole (an OWNER to ADMIN)',
    method: 'PATCH',
    prepare: async () => ({ path: `/members/${await freshOwner()}`, body: { role: 'ADMIN' } }),
    expect: ownerOnly(200),
  },
  {
    op: 'updateMemberRole (an OWNER to MEMBER)',
    method: 'PATCH',
    prepare: async () => ({ path: `/members/${await freshOwner()}`, body: { role: 'MEMBER' } }),
    expect: ownerOnly(200),
  },
  {
    op: 'revokeMember (an OWNER)',
    method: 'POST',
    prepare: async () => ({ path: `/members/${await freshOwner()}/revoke` }),
    expect: ownerOnly(200),
  },
  {
    op: 'signOutMember',
    method: 'POST',
    prepare: async () => ({ path: `/members/${await freshMember()}/sign-out` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'listAccessRequests',
    method: 'GET',
    prepare: async () => ({ path: `/projects/${sharedProject}/access-requests` }),
    expect: anyMember(200),
  },
  {
    op: 'createAccessRequest',
    method: 'POST',
    prepare: async () => ({
      path: `/projects/${await grantedProject()}/access-requests`,
      body: { level: 'MANAGE', reason: 'I run the releases' },
    }),
    expect: outcomes(201, (a) =>
      a === 'memberManageTeam' || a === 'memberManageDirect' ? [409, 'access_already_held'] : undefined,
    ),
    tokenless: true,
  },
  {
    op: 'approveAccessRequest',
    method: 'POST',
    prepare: async () => ({ path: `${await pendingRequest()}/approve`, body: { level: 'EDIT' } }),
    expect: projectManage(200),
  },
  {
    op: 'denyAccessRequest',
    method: 'POST',
    prepare: async () => ({ path: `${await pendingRequest()}/deny` }),
    expect: projectManage(200),
  },
  {
    op: 'withdrawAccessRequest',
    method: 'POST',
    prepare: async () => ({ path: `${await pendingRequest()}/withdraw` }),
    expect: outcomes(200, (a) => (a === 'memberNoGrant' ? undefined : [404, 'access_request_not_found'])),
    tokenless: true,
  },
  { op: 'listTeams', method: 'GET', prepare: async () => ({ path: '/teams' }), expect: orgAdminOnly(200) },
  {
    op: 'createTeam',
    method: 'POST',
    prepare: async () => ({ path: '/teams', body: { slug: unique('new-team'), name: 'New team' } }),
    expect: orgAdminOnly(201),
  },
  {
    op: 'updateTeam',
    method: 'PATCH',
    prepare: async () => ({ path: `/teams/${await freshTeam()}`, body: { name: 'Renamed', description: null } }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'archiveTeam',
    method: 'POST',
    prepare: async () => ({ path: `/teams/${await freshTeam()}/archive` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'listTeamMembers',
    method: 'GET',
    prepare: async () => ({ path: `/teams/${await freshTeam()}/members` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'listTeamProjects',
    method: 'GET',
    prepare: async () => ({ path: `/teams/${await freshTeam()}/projects` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'addTeamMember',
    method: 'POST',
    prepare: async () => ({ path: `/teams/${await freshTeam()}/members`, body: { userId: userIds['m-none'] } }),
    expect: orgAdminOnly(201),
  },
  {
    op: 'revokeTeamMember',
    method: 'POST',
    async prepare() {
      const team = await freshTeam();
      await okBody(call('owner', 'addTeamMember', { path: { teamId: team }, body: { userId: userIds['m-none'] } }));
      return { path: `/teams/${team}/members/${userIds['m-none']}/revoke` };
    },
    expect: orgAdminOnly(200),
  },
  { op: 'getExplorer', method: 'GET', prepare: async () => ({ path: '/explorer' }), expect: orgAdminOnly(200) },
  { op: 'listMyProjects', method: 'GET', prepare: async () => ({ path: '/my-projects' }), expect: anyMember(200) },
  {
    op: 'createFolder',
    method: 'POST',
    prepare: async () => ({ path: '/folders', body: { name: unique('New folder') } }),
    expect: orgAdminOnly(201),
  },
  {
    op: 'updateFolder',
    method: 'PATCH',
    prepare: async () => ({ path: `/folders/${await freshFolder()}`, body: { name: 'Renamed' } }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'archiveFolder',
    method: 'POST',
    prepare: async () => ({ path: `/folders/${await freshFolder()}/archive` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'createProject (members allowed)',
    method: 'POST',
    prepare: async () => ({ path: '/projects', body: { name: unique('New project') } }),
    expect: anyMember(201),
  },
  {
    op: 'createProject (members not allowed)',
    method: 'POST',
    async prepare() {
      await okBody(call('owner', 'updateOrgSettings', { body: { membersCanCreateProjects: false } }));
      return { path: '/projects', body: { name: unique('New project') } };
    },
    expect: orgAdminOnly(201),
  },
  {
    op: 'getProject',
    method: 'GET',
    prepare: async () => ({ path: `/projects/${sharedProject}` }),
    expect: projectRead(200),
  },
  {
    op: 'renameProject',
    method: 'PATCH',
    prepare: async () => ({ path: `/projects/${await grantedProject()}`, body: { name: 'Renamed' } }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'moveProject',
    method: 'PATCH',
    prepare: async () => ({
      path: `/projects/${await grantedProject()}/folder`,
      body: { folderId: await freshFolder() },
    }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'archiveProject',
    method: 'POST',
    prepare: async () => ({ path: `/projects/${await grantedProject()}/archive` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'archiveProjectBinding',
    method: 'POST',
    async prepare() {
      const project = await grantedProject();
      const org = await hub.services.organizations.findBySlug('acme');
      await hub.services.projects.bindChat(org!.id, project, unique('oc-chat'));
      return { path: `/projects/${project}/binding/archive` };
    },
    expect: orgAdminOnly(200),
  },
  {
    op: 'listProjectSessions',
    method: 'GET',
    prepare: async () => ({ path: `/projects/${sharedProject}/sessions` }),
    expect: projectRead(200),
  },
  {
    op: 'listProjectTeamAccess',
    method: 'GET',
    prepare: async () => ({ path: `/projects/${sharedProject}/team-access` }),
    expect: projectRead(200),
  },
  {
    op: 'getProjectAccess',
    method: 'GET',
    prepare: async () => ({ path: `/projects/${sharedProject}/access` }),
    expect: projectRead(200),
  },
  {
    op: 'putProjectTeamAccess',
    method: 'PUT',
    prepare: async () => ({
      path: `/projects/${await grantedProject()}/team-access`,
      body: { teamSlug: 'team-extra', role: 'EDIT' },
    }),
    expect: projectManage(200),
  },
  {
    op: 'deleteProjectTeamAccess',
    method: 'DELETE',
    async prepare() {
      const project = await grantedProject();
      const teams = await okBody(call('owner', 'listProjectTeamAccess', { path: { projectId: project } }));
      const read = teams.access.find((e) => e.teamSlug === 'team-read');
      return { path: `/projects/${project}/team-access/${read!.teamId}` };
    },
    expect: projectManage(204),
  },
  // Usage, connections and agents: the operations of the second wave, all org-admin only.
  {
    op: 'getUsageBreakdown',
    method: 'GET',
    prepare: async () => ({ path: '/usage/breakdown' }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'getUsageSeries',
    method: 'GET',
    prepare: async () => ({ path: '/usage/series?from=2026-11-01T00:00:00Z&to=2026-11-08T00:00:00Z' }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'ingestUsageRuns',
    method: 'POST',
    prepare: async () => ({
      path: '/usage/runs',
      body: [runLine(sharedProject, unique('matrix-session'), '2026-11-20T10:00:00Z')],
    }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'getMyUsage',
    method: 'GET',
    prepare: async () => ({ path: '/usage/mine?from=2026-11-01T00:00:00Z&to=2026-11-08T00:00:00Z' }),
    expect: anyMember(200),
  },
  {
    op: 'listCapabilityConnections',
    method: 'GET',
    prepare: async () => ({ path: '/capability-connections' }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'putCapabilityConnection',
    method: 'PUT',
    prepare: async () => ({
      path: `/capability-connections/${unique('cap')}`,
      body: {
        label: 'Docs',
        kind: 'mcp',
        endpointUrl: 'https://mcp.example.com',
        headers: { Authorization: 'Bearer s' },
      },
    }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'disableCapabilityConnection',
    method: 'DELETE',
    prepare: async () => ({ path: `/capability-connections/${await freshCapability()}` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'listInvitations',
    method: 'GET',
    prepare: async () => ({ path: '/invitations?limit=5' }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'createInvitation',
    method: 'POST',
    prepare: async () => ({ path: '/invitations', body: { role: 'MEMBER' } }),
    expect: orgAdminOnly(201),
  },
  {
    op: 'revokeInvitation',
    method: 'POST',
    prepare: async () => ({ path: `/invitations/${await freshInvitation()}/revoke` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'listWebhooks',
    method: 'GET',
    prepare: async () => ({ path: '/webhooks?limit=5' }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'createWebhook',
    method: 'POST',
    prepare: async () => ({ path: '/webhooks', body: { url: WEBHOOK_URL, events: ['*'] } }),
    expect: orgAdminOnly(201),
  },
  {
    op: 'updateWebhook',
    method: 'PATCH',
    prepare: async () => ({ path: `/webhooks/${await freshWebhook()}`, body: { description: 'Changed' } }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'deleteWebhook',
    method: 'DELETE',
    prepare: async () => ({ path: `/webhooks/${await freshWebhook()}` }),
    expect: orgAdminOnly(204),
  },
  {
    op: 'rotateWebhookSecret',
    method: 'POST',
    prepare: async () => ({ path: `/webhooks/${await freshWebhook()}/rotate-secret` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'testWebhook',
    method: 'POST',
    prepare: async () => ({ path: `/webhooks/${await freshWebhook()}/test` }),
    expect: orgAdminOnly(201),
  },
  {
    op: 'listWebhookDeliveries',
    method: 'GET',
    prepare: async () => ({ path: `/webhooks/${await freshWebhook()}/deliveries?limit=5` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'redeliverWebhookDelivery',
    method: 'POST',
    prepare: async () => ({ path: `${await freshDelivery()}/redeliver` }),
    expect: orgAdminOnly(201),
  },
  { op: 'listDomains', method: 'GET', prepare: async () => ({ path: '/domains?limit=5' }), expect: orgAdminOnly(200) },
  {
    op: 'addDomain',
    method: 'POST',
    prepare: async () => ({ path: '/domains', body: { domain: `${unique('add')}.example` } }),
    expect: orgAdminOnly(201),
  },
  {
    op: 'verifyDomain',
    method: 'POST',
    prepare: async () => ({ path: `/domains/${await verifiedDomain()}/verify` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'deleteDomain',
    method: 'DELETE',
    prepare: async () => ({ path: `/domains/${await freshDomain()}` }),
    expect: orgAdminOnly(204),
  },
  {
    op: 'updateDomain',
    method: 'PATCH',
    prepare: async () => ({
      path: `/domains/${await verifiedDomain()}`,
      body: { enforceSso: { providerId: await freshIdentityProvider() } },
    }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'listOrgIdentityProviders',
    method: 'GET',
    prepare: async () => ({ path: '/identity-providers?limit=5' }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'createOrgIdentityProvider',
    method: 'POST',
    prepare: async () => ({
      path: '/identity-providers',
      body: {
        id: unique('acme-new'),
        kind: 'oidc',
        label: 'New',
        issuer: idp.issuer,
        clientId: 'hub',
        clientSecret: 's',
      },
    }),
    expect: orgAdminOnly(201),
  },
  {
    op: 'updateOrgIdentityProvider',
    method: 'PATCH',
    prepare: async () => ({ path: `/identity-providers/${await freshIdentityProvider()}`, body: { label: 'Renamed' } }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'testOrgIdentityProvider',
    method: 'POST',
    prepare: async () => ({ path: `/identity-providers/${await freshIdentityProvider()}/test-sign-ins` }),
    expect: orgAdminOnly(201),
  },
  {
    op: 'deleteOrgIdentityProvider',
    method: 'DELETE',
    prepare: async () => ({ path: `/identity-providers/${await freshIdentityProvider()}` }),
    expect: orgAdminOnly(204),
  },
  {
    op: 'listBudgets',
    method: 'GET',
    prepare: async () => ({ path: '/budgets' }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'listBudgetMembers',
    method: 'GET',
    prepare: async () => ({ path: `/budgets/${await freshBudget()}/members` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'createBudget',
    method: 'POST',
    prepare: async () => ({
      path: '/budgets',
      body: { name: 'New', scope: { type: 'organization' }, metric: 'tokens', amount: 5, period: 'day' },
    }),
    expect: orgAdminOnly(201),
  },
  {
    op: 'updateBudget',
    method: 'PATCH',
    prepare: async () => ({ path: `/budgets/${await freshBudget()}`, body: { name: 'Changed' } }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'deleteBudget',
    method: 'DELETE',
    prepare: async () => ({ path: `/budgets/${await freshBudget()}` }),
    expect: orgAdminOnly(204),
  },
  { op: 'listPolicies', method: 'GET', prepare: async () => ({ path: '/policies' }), expect: orgAdminOnly(200) },
  {
    op: 'createPolicy',
    method: 'POST',
    prepare: async () => ({ path: '/policies', body: { scope: { type: 'team', id: await freshTeam() }, allow: {} } }),
    expect: orgAdminOnly(201),
  },
  {
    op: 'getPolicy',
    method: 'GET',
    prepare: async () => ({ path: `/policies/${await freshPolicy()}` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'updatePolicy',
    method: 'PATCH',
    prepare: async () => ({ path: `/policies/${await freshPolicy()}`, body: { allow: { providers: [] } } }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'deletePolicy',
    method: 'DELETE',
    prepare: async () => ({ path: `/policies/${await freshPolicy()}` }),
    expect: orgAdminOnly(204),
  },
  {
    op: 'admitRun',
    method: 'POST',
    prepare: async () => ({
      path: '/admission',
      body: { projectId: 'any-project', initiatedBy: { type: 'member', imOpenId: 'ou_anyone' }, model: 'gpt-5' },
    }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'disableProviderConnection',
    method: 'DELETE',
    prepare: async () => ({ path: `/provider-connections/${await freshProvider()}` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'listProviderConnections',
    method: 'GET',
    prepare: async () => ({ path: '/provider-connections' }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'rotateProviderConnection',
    method: 'PUT',
    prepare: async () => ({
      path: `/provider-connections/${await freshProvider()}`,
      body: { baseUrl: 'https://api.example.com', authToken: 'sk-rotated' },
    }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'getChatApplicationConnection',
    method: 'GET',
    prepare: async () => ({ path: '/imapp-application-connection' }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'putChatApplicationConnection',
    method: 'PUT',
    prepare: async () => ({ path: '/imapp-application-connection', body: CHAT_APPLICATION }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'disableChatApplicationConnection',
    method: 'DELETE',
    async prepare() {
      await okBody(call('owner', 'putChatApplicationConnection', { body: CHAT_APPLICATION }));
      return { path: '/imapp-application-connection' };
    },
    expect: orgAdminOnly(200),
  },
  {
    op: 'getCapacityPolicy',
    method: 'GET',
    prepare: async () => ({ path: '/capacity-policy' }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'updateCapacityPolicy',
    method: 'PUT',
    prepare: async () => ({ path: '/capacity-policy', body: { limits: { attachmentCount: 100 + (++counter % 500) } } }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'updateAgentRole',
    method: 'PATCH',
    prepare: async () => ({ path: `/agent-roles/${await freshRole()}`, body: { disabled: true } }),
    expect: orgAdminOnly(200),
  },
  { op: 'listAgentRoles', method: 'GET', prepare: async () => ({ path: '/agent-roles' }), expect: orgAdminOnly(200) },
  {
    op: 'putAgentRole',
    method: 'PUT',
    prepare: async () => ({ path: `/agent-roles/${unique('new-role')}`, body: { label: 'New', isDefault: true } }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'putAgentRoleSkills',
    method: 'PUT',
    prepare: async () => ({
      path: `/agent-roles/${await freshRole()}/skills`,
      body: { skillNames: [await freshSkill()] },
    }),
    expect: orgAdminOnly(200),
  },
  { op: 'listAgentModels', method: 'GET', prepare: async () => ({ path: '/agent-models' }), expect: orgAdminOnly(200) },
  { op: 'listAgentSkills', method: 'GET', prepare: async () => ({ path: '/agent-skills' }), expect: orgAdminOnly(200) },
  {
    op: 'installAgentSkill',
    method: 'PUT',
    async prepare() {
      const name = unique('new-skill');
      return { path: `/agent-skills/${name}`, body: skillBody(name) };
    },
    expect: orgAdminOnly(200),
  },
  {
    op: 'installAgentSkill (a new version)',
    method: 'PUT',
    async prepare() {
      const name = await freshSkill();
      return { path: `/agent-skills/${name}`, body: skillBody(name, '2.0.0') };
    },
    expect: orgAdminOnly(200),
  },
  {
    op: 'getAgentSkillFiles',
    method: 'GET',
    prepare: async () => ({ path: `/agent-skills/${await freshSkill()}/files` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'updateAgentSkill',
    method: 'PATCH',
    prepare: async () => ({ path: `/agent-skills/${await freshSkill()}`, body: { description: 'Relabelled' } }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'getAgentLibrary',
    method: 'GET',
    prepare: async () => ({ path: '/agent-library' }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'createAgentLibraryFolder',
    method: 'POST',
    prepare: async () => ({ path: '/agent-library/folders', body: { name: unique('New') } }),
    expect: orgAdminOnly(201),
  },
  {
    op: 'updateAgentLibraryFolder',
    method: 'PATCH',
    prepare: async () => ({ path: `/agent-library/folders/${await freshLibraryFolder()}`, body: { name: 'Renamed' } }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'archiveAgentLibraryFolder',
    method: 'POST',
    prepare: async () => ({ path: `/agent-library/folders/${await freshLibraryFolder()}/archive` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'listServiceAccounts',
    method: 'GET',
    prepare: async () => ({ path: '/service-accounts' }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'createServiceAccount',
    method: 'POST',
    prepare: async () => ({ path: '/service-accounts', body: { name: unique('new-robot') } }),
    expect: orgAdminOnly(201),
  },
  {
    op: 'getServiceAccount',
    method: 'GET',
    prepare: async () => ({ path: `/service-accounts/${await freshServiceAccount()}` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'updateServiceAccount',
    method: 'PATCH',
    prepare: async () => ({ path: `/service-accounts/${await freshServiceAccount()}`, body: { role: 'ADMIN' } }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'disableServiceAccount',
    method: 'POST',
    prepare: async () => ({ path: `/service-accounts/${await freshServiceAccount()}/disable` }),
    expect: orgAdminOnly(200),
  },
  {
    op: 'enableServiceAccount',
    method: 'POST',
    async prepare() {
      const id = await freshServiceAccount();
      await okBody(call('owner', 'disableServiceAccount', { path: { serviceAccountId: id } }));
      return { path: `/service-accounts/${id}/enable` };
    },
    expect: orgAdminOnly(200),
  },
  {
    op: 'deleteServiceAccount',
    method: 'DELETE',
    prepare: async () => ({ path: `/service-accounts/${await freshServiceAccount()}` }),
    expect: orgAdminOnly(204),
  },
  {
    op: 'getMemberDeparture',
    method: 'GET',
    prepare: async () => ({ path: `/members/${await freshMember()}/departure` }),
    expect: orgAdminOnly(200),
  },
];

beforeAll(async () => {
  // Identity providers are checked by discovery before they are stored: one runs on loopback.
  hub = await TestHub.start({ config: { outboundAllowPrivate: true } });
  idp = await TestOpenIdProvider.start({ clientId: 'hub', clientSecret: 's', redirectUris: [`${TEST_ORIGIN}/cb`] });
  writes = await installWriteCounter(hub.services.db, REQUEST_BOOKKEEPING);
  const acme = await hub.createOrg('acme', IM.owner);
  await hub.addMembership(acme.id, IM.admin, 'ADMIN');
  for (const actor of MEMBERS) await hub.addMembership(acme.id, IM[actor as keyof typeof IM], 'MEMBER');
  await hub.createOrg('globex', IM.otherOrgOwner);
  cookies.anonymous = undefined;
  for (const [actor, im] of Object.entries(IM)) {
    cookies[actor as Actor] = await hub.login(im);
    userIds[im] = (await hub.services.users.findByImOpenId(hub.services.db, im))!.id;
  }
  for (const [slug, actor] of [
    ['team-read', 'memberRead'],
    ['team-edit', 'memberEdit'],
    ['team-manage', 'memberManageTeam'],
    ['team-extra', undefined],
  ] as const) {
    const team = await okBody(call('owner', 'createTeam', { body: { slug, name: slug } }));
    if (actor)
      await okBody(call('owner', 'addTeamMember', { path: { teamId: team.id }, body: { userId: userIds[IM[actor]] } }));
  }
  await okBody(call('owner', 'updateOrgSettings', { body: { membersCanCreateProjects: true } }));
  sharedProject = await grantedProject();
});
afterAll(async () => {
  await idp?.stop();
  await hub.stop();
});

/** Every statement the matrix's calls sent, whose plans are checked once it has run. */
const sent: CapturedQuery[] = [];

describe('authorization matrix', () => {
  for (const row of rows) {
    describe(row.op, () => {
      for (const actor of ACTORS) {
        const [status, code] = row.expect[actor];
        it(`${actor} → ${status}${code ? ` ${code}` : ''}`, async () => {
          // A new requestRate window for each call: the matrix sends acme more than its ceiling of 600 a minute.
          hub.clock.advance(60_000);
          await okBody(call('owner', 'updateOrgSettings', { body: { membersCanCreateProjects: true } }));
          const { path, body } = await row.prepare();
          const before = status >= 400 ? await writes.counts() : undefined;
          const res = await recordedInto(hub, sent, () => as(actor, row.method, path, body));
          expect(res.status, res.text).toBe(status);
          if (code) expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
          if (before !== undefined) expect(await writes.writtenSince(before)).toEqual([]);
        });
      }
    });
  }
});

describe('query plans of the matrix', () => {
  // Whoever calls, an operation finds its rows by index: a statement that reads a whole table
  // costs every call the rows of every organization (test/support/full-scans.ts).
  it('no call sent a statement that reads a whole table', async () => {
    expect(sent.length).toBeGreaterThan(rows.length);
    expect(await fullScans(hub, sent)).toEqual([]);
  });
});

/**
 * API tokens as callers: a token acts with its member's rights within its scopes. With the
 * operation's scope, an owner's token fares exactly as the owner and a MANAGE holder's as that
 * member, and a service account's token as a member of its role with no grants (MEMBER: as
 * memberNoGrant; ADMIN: as admin); with another area's scope (or read for a write) it gets 403
 * token_scope_required; a revoked or expired token 401 token_invalid; another organization's
 * token 404 org_not_found.
 */
describe('authorization matrix: API tokens', () => {
  const scopeOf = (op: string) => {
    const operationId = op.split(' ')[0]!;
    return listOperations().find((o) => o.operationId === operationId)!.operation['x-authorization']!.scope as Scope;
  };
  const otherArea = (scope: Scope): Scope => (scope.startsWith('audit:') ? 'org:write' : 'audit:write');
  const tokens = new Map<string, string>();

  /** A token of `actor` in `slug` with `scopes`, made once and reused (unless it is meant to end). */
  async function tokenOf(actor: Actor, scopes: Scope[], options: { slug?: string; end?: 'revoke' | 'expire' } = {}) {
    const slug = options.slug ?? 'acme';
    const key = [actor, slug, options.end ?? '', ...scopes].join(' ');
    const known = tokens.get(key);
    if (known && !options.end) return known;
    const expiresAt = options.end === 'expire' ? new Date(hub.clock.now().getTime() + 1000).toISOString() : undefined;
    const created = await okBody(
      hub.orgCall(slug, cookies[actor], 'createApiToken', {
        body: { name: key, scopes, ...(expiresAt ? { expiresAt } : {}) },
      }),
      201,
    );
    if (options.end === 'revoke') {
      await okBody(hub.orgCall(slug, cookies[actor], 'revokeApiToken', { path: { tokenId: created.id } }));
    }
    if (options.end === 'expire') hub.clock.advance(1000);
    tokens.set(key, created.token);
    return created.token;
  }

  const serviceAccounts = new Map<string, string>();
  /** A token of acme's service account of `role` with `scopes`, made once and reused. */
  async function serviceAccountTokenOf(role: 'MEMBER' | 'ADMIN', scopes: Scope[]) {
    const key = ['service account', role, ...scopes].join(' ');
    const known = tokens.get(key);
    if (known) return known;
    let serviceAccountId = serviceAccounts.get(role);
    if (!serviceAccountId) {
      const body = { name: `matrix ${role} robot`, role };
      serviceAccountId = (await okBody(call('owner', 'createServiceAccount', { body }), 201)).id;
      serviceAccounts.set(role, serviceAccountId);
    }
    const created = await okBody(
      call('owner', 'createApiToken', { body: { name: key, scopes, serviceAccountId } }),
      201,
    );
    tokens.set(key, created.token);
    return created.token;
  }

  const bearerAs = (token: string, method: string, path: string, body?: unknown) =>
    hub.request(method, `/api/org/acme${path}`, { body, headers: { authorization: `Bearer ${token}` } });

  for (const row of rows.filter((r) => r.tokenless)) {
    it(`${row.op}: an owner token with projects:write → 403 token_scope_required, nothing changed`, async () => {
      hub.clock.advance(60_000);
      const token = await tokenOf('owner', ['projects:write']);
      const { path, body } = await row.prepare();
      const before = await writes.counts();
      const res = await bearerAs(token, row.method, path, body);
      expect(res.status, res.text).toBe(403);
      expect(res.body).toEqual({ error: { code: 'token_scope_required', message: expect.any(String) } });
      expect(await writes.writtenSince(before)).toEqual([]);
    });
  }

  for (const row of rows.filter((r) => !r.tokenless)) {
    describe(row.op, () => {
      const scope = scopeOf(row.op);
      const cases: Array<[string, () => Promise<string>, Outcome]> = [
        ['owner token with the scope', () => tokenOf('owner', [scope]), row.expect.owner],
        [
          'MANAGE member token with the scope',
          () => tokenOf('memberManageDirect', [scope]),
          row.expect.memberManageDirect,
        ],
        ['memberNoGrant token with the scope', () => tokenOf('memberNoGrant', [scope]), row.expect.memberNoGrant],
        [
          'MEMBER service account token with the scope',
          () => serviceAccountTokenOf('MEMBER', [scope]),
          row.expect.memberNoGrant,
        ],
        ['ADMIN service account token with the scope', () => serviceAccountTokenOf('ADMIN', [scope]), row.expect.admin],
        ['owner token of another area', () => tokenOf('owner', [otherArea(scope)]), [403, 'token_scope_required']],
        ['revoked owner token', () => tokenOf('owner', [scope], { end: 'revoke' }), [401, 'token_invalid']],
        ['expired owner token', () => tokenOf('owner', [scope], { end: 'expire' }), [401, 'token_invalid']],
        [
          "another organization's token",
          () => tokenOf('otherOrgOwner', [scope], { slug: 'globex' }),
          [404, 'org_not_found'],
        ],
      ];
      if (scope.endsWith(':write')) {
        const read = scope.replace(':write', ':read') as Scope;
        cases.push(['owner token with read only', () => tokenOf('owner', [read]), [403, 'token_scope_required']]);
      }
      for (const [name, tokenFor, [status, code]] of cases) {
        it(`${name} → ${status}${code ? ` ${code}` : ''}`, async () => {
          hub.clock.advance(60_000);
          await okBody(call('owner', 'updateOrgSettings', { body: { membersCanCreateProjects: true } }));
          const token = await tokenFor();
          const { path, body } = await row.prepare();
          const before = status >= 400 ? await writes.counts() : undefined;
          const res = await bearerAs(token, row.method, path, body);
          expect(res.status, res.text).toBe(status);
          if (code) expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
          if (before !== undefined) expect(await writes.writtenSince(before)).toEqual([]);
        });
      }
    });
  }
});

/**
 * The agent runtime's callers. The `runtime` scope of a service account's token admits the
 * operations marked `runtime: true` whatever the account's role, and nothing else; no personal
 * token can hold it. `resolveRuntimeCredential` admits a platform runtime credential alone: every
 * session and every organization's token gets 403 `runtime_credential_required`, nothing at all
 * 401, an unknown or revoked credential 401 `token_invalid`; it writes nothing either way.
 */
describe('authorization matrix: the runtime', () => {
  const runtimeMarked = new Set(
    listOperations()
      .filter((o) => o.operation['x-authorization']?.runtime)
      .map((o) => o.operationId),
  );
  const runtimeRows = rows.filter((row) => runtimeMarked.has(row.op));
  const bearerAs = (token: string, method: string, path: string, body?: unknown) =>
    hub.request(method, `/api/org/acme${path}`, { body, headers: { authorization: `Bearer ${token}` } });
  const runtimeToken = async (role: 'MEMBER' | 'ADMIN') => {
    const body = { name: unique(`runtime ${role}`), role };
    const serviceAccountId = (await okBody(call('owner', 'createServiceAccount', { body }), 201)).id;
    const scopes: Scope[] = ['runtime'];
    const created = await okBody(
      call('owner', 'createApiToken', { body: { name: unique('rt'), scopes, serviceAccountId } }),
      201,
    );
    return created.token;
  };

  it('has a row for every operation the runtime scope opens', () => {
    const marked = listOperations()
      .filter((o) => o.operation['x-authorization']?.runtime)
      .map((o) => o.operationId);
    expect(runtimeRows.map((row) => row.op).sort()).toEqual(marked.sort());
  });

  for (const role of ['MEMBER', 'ADMIN'] as const) {
    it(`a ${role} service account's runtime token calls each runtime operation, and nothing else`, async () => {
      const token = await runtimeToken(role);
      for (const row of runtimeRows) {
        hub.clock.advance(60_000);
        const { path, body } = await row.prepare();
        const res = await bearerAs(token, row.method, path, body);
        expect(res.status, `${row.op}: ${res.text}`).toBe(row.expect.owner[0]);
      }
      for (const row of rows.filter((r) => !runtimeRows.includes(r) && r.method === 'GET')) {
        const { path } = await row.prepare();
        const before = await writes.counts();
        const res = await bearerAs(token, row.method, path);
        expect(res.status, `${row.op}: ${res.text}`).toBe(403);
        expect(res.body).toEqual({ error: { code: 'token_scope_required', message: expect.any(String) } });
        expect(await writes.writtenSince(before)).toEqual([]);
      }
    });
  }

  it('no personal token holds the runtime scope, an owner’s included', async () => {
    for (const actor of ['owner', 'admin', 'memberNoGrant'] as const) {
      const before = await writes.counts();
      const res = await call(actor, 'createApiToken', { body: { name: unique('personal'), scopes: ['runtime'] } });
      expect(res.status, res.text).toBe(422);
      expect(res.body).toEqual({ error: { code: 'runtime_scope_service_account_only', message: expect.any(String) } });
      expect(await writes.writtenSince(before)).toEqual([]);
    }
  });

  describe('resolveRuntimeCredential', () => {
    const path = '/api/org/acme/runtime/credentials';
    let providerId: string;
    beforeAll(async () => {
      providerId = await freshProvider();
    });
    const resolveAs = async (headers: Record<string, string>, cookie?: string) => {
      hub.clock.advance(60_000);
      const before = await writes.counts();
      const res = await hub.request('POST', path, { cookie, headers, body: { providerId } });
      expect(await writes.writtenSince(before)).toEqual([]);
      return res;
    };
    for (const actor of ACTORS) {
      const [status, code]: Outcome =
        actor === 'anonymous' ? [401, 'unauthenticated'] : [403, 'runtime_credential_required'];
      it(`${actor}'s session → ${status} ${code}`, async () => {
        const res = await resolveAs({}, cookies[actor]);
        expect(res.status, res.text).toBe(status);
        expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
      });
    }
    const tokenCases: Array<[string, () => Promise<string>]> = [
      [
        'an owner token with connections:write',
        async () => {
          const body = { name: unique('t'), scopes: ['connections:write' as Scope] };
          return (await okBody(call('owner', 'createApiToken', { body }), 201)).token;
        },
      ],
      ['a MEMBER service account runtime token', () => runtimeToken('MEMBER')],
      ['an ADMIN service account runtime token', () => runtimeToken('ADMIN')],
    ];
    for (const [name, tokenOf] of tokenCases) {
      it(`${name} → 403 runtime_credential_required`, async () => {
        const res = await resolveAs({ authorization: `Bearer ${await tokenOf()}` });
        expect(res.status, res.text).toBe(403);
        expect(res.body).toEqual({ error: { code: 'runtime_credential_required', message: expect.any(String) } });
      });
    }
    it('a platform runtime credential → 200; revoked or unknown → 401 token_invalid', async () => {
      const { secret } = await hub.services.runtimeCredentials.create(unique('matrix-runtime'));
      const ok = await resolveAs({ authorization: `Bearer ${secret}` });
      expect(ok.status, ok.text).toBe(200);
      const revoked = await hub.services.runtimeCredentials.create(unique('matrix-revoked'));
      await hub.services.runtimeCredentials.revoke(revoked.record.id);
      for (const secret of [revoked.secret, `hubr_${'A'.repeat(43)}`]) {
        const res = await resolveAs({ authorization: `Bearer ${secret}` });
        expect(res.status, res.text).toBe(401);
        expect(res.body).toEqual({ error: { code: 'token_invalid', message: expect.any(String) } });
      }
    });
  });
});

describe('ids from another organization', () => {
  let foreign: {
    userId: string;
    teamId: string;
    folderId: string;
    projectId: string;
    libraryFolderId: string;
    serviceAccountId: string;
  };
  const foreignIds = {
    roleId: 'globex-role',
    providerId: 'globex-prov',
    capabilityId: 'globex-cap',
    skillName: 'globex-skill',
  };
  let ownLibraryFolder: string;
  let ownRole: string;
  let ownTeam: string;
  let ownProject: string;
  let sharedFolder: string;

  beforeAll(async () => {
    const globex = <O extends OrgOperationId>(operationId: O, ...input: OrgCallArgs<O>) =>
      hub.orgCall('globex', cookies.otherOrgOwner, operationId, ...input);
    const member = await okBody(globex('addMember', { body: { imOpenId: 'globex-only', role: 'MEMBER' } }));
    const team = await okBody(globex('createTeam', { body: { slug: 'globex-team', name: 'Globex team' } }));
    const folder = await okBody(globex('createFolder', { body: { name: 'Globex folder' } }));
    const project = await okBody(globex('createProject', { body: { name: 'Globex project' } }));
    const libraryFolder = await okBody(globex('createAgentLibraryFolder', { body: { name: 'Globex shelf' } }));
    const serviceAccount = await okBody(globex('createServiceAccount', { body: { name: 'Globex robot' } }));
    await okBody(globex('putAgentRole', { path: { roleId: foreignIds.roleId }, body: { label: 'Theirs' } }));
    await okBody(
      globex('installAgentSkill', { path: { name: foreignIds.skillName }, body: skillBody(foreignIds.skillName) }),
    );
    await okBody(
      globex('rotateProviderConnection', {
        path: { providerId: foreignIds.providerId },
        body: { baseUrl: 'https://api.example.com', authToken: 'sk-theirs' },
      }),
    );
    await okBody(
      globex('putCapabilityConnection', {
        path: { capabilityId: foreignIds.capabilityId },
        body: { label: 'Theirs', kind: 'http', endpointUrl: 'https://theirs.example.com' },
      }),
    );
    foreign = {
      userId: member.userId,
      teamId: team.id,
      folderId: folder.id,
      projectId: project.id,
      libraryFolderId: libraryFolder.id,
      serviceAccountId: serviceAccount.id,
    };
    ownLibraryFolder = await freshLibraryFolder();
    ownRole = await freshRole();
    await okBody(
      call('owner', 'installAgentSkill', {
        path: { name: 'own-skill' },
        body: { version: '1', files: [{ path: 'SKILL.md', content: '---\nname: own-skill\n---\n' }] },
      }),
    );
    ownTeam = await freshTeam();
    ownProject = (await okBody(call('owner', 'createProject', { body: { name: 'Owner project' } }))).id;
    sharedFolder = await freshFolder();
  });

  const cases: Array<[string, string, () => string, () => unknown, string]> = [
    ['updateMemberRole', 'PATCH', () => `/members/${foreign.userId}`, () => ({ role: 'ADMIN' }), 'member_not_found'],
    ['revokeMember', 'POST', () => `/members/${foreign.userId}/revoke`, () => undefined, 'member_not_found'],
    ['getMemberDeparture', 'GET', () => `/members/${foreign.userId}/departure`, () => undefined, 'member_not_found'],
    [
      'getServiceAccount',
      'GET',
      () => `/service-accounts/${foreign.serviceAccountId}`,
      () => undefined,
      'service_account_not_found',
    ],
    [
      'disableServiceAccount',
      'POST',
      () => `/service-accounts/${foreign.serviceAccountId}/disable`,
      () => undefined,
      'service_account_not_found',
    ],
    [
      'createApiToken (foreign service account)',
      'POST',
      () => '/api-tokens',
      () => ({ name: 'x', scopes: ['org:read'], serviceAccountId: foreign.serviceAccountId }),
      'service_account_not_found',
    ],
    ['updateTeam', 'PATCH', () => `/teams/${foreign.teamId}`, () => ({ name: 'x' }), 'team_not_found'],
    ['archiveTeam', 'POST', () => `/teams/${foreign.teamId}/archive`, () => undefined, 'team_not_found'],
    ['listTeamMembers', 'GET', () => `/teams/${foreign.teamId}/members`, () => undefined, 'team_not_found'],
    ['listTeamProjects', 'GET', () => `/teams/${foreign.teamId}/projects`, () => undefined, 'team_not_found'],
    [
      'addTeamMember (foreign team)',
      'POST',
      () => `/teams/${foreign.teamId}/members`,
      () => ({ imOpenId: 'm-none' }),
      'team_not_found',
    ],
    [
      'addTeamMember (foreign user)',
      'POST',
      () => `/teams/${ownTeam}/members`,
      () => ({ userId: foreign.userId }),
      'member_not_found',
    ],
    [
      'revokeTeamMember (foreign team)',
      'POST',
      () => `/teams/${foreign.teamId}/members/${userIds['m-none']}/revoke`,
      () => undefined,
      'team_not_found',
    ],
    [
      'revokeTeamMember (foreign user)',
      'POST',
      () => `/teams/${ownTeam}/members/${foreign.userId}/revoke`,
      () => undefined,
      'member_not_found',
    ],
    ['createFolder', 'POST', () => '/folders', () => ({ name: 'x', parentId: foreign.folderId }), 'folder_not_found'],
    ['updateFolder', 'PATCH', () => `/folders/${foreign.folderId}`, () => ({ name: 'x' }), 'folder_not_found'],
    [
      'updateFolder (foreign parent)',
      'PATCH',
      () => `/folders/${sharedFolder}`,
      () => ({ parentId: foreign.folderId }),
      'folder_not_found',
    ],
    ['archiveFolder', 'POST', () => `/folders/${foreign.folderId}/archive`, () => undefined, 'folder_not_found'],
    ['createProject', 'POST', () => '/projects', () => ({ name: 'x', folderId: foreign.folderId }), 'folder_not_found'],
    ['getProject', 'GET', () => `/projects/${foreign.projectId}`, () => undefined, 'project_not_found'],
    ['renameProject', 'PATCH', () => `/projects/${foreign.projectId}`, () => ({ name: 'x' }), 'project_not_found'],
    [
      'moveProject',
      'PATCH',
      () => `/projects/${foreign.projectId}/folder`,
      () => ({ folderId: null }),
      'project_not_found',
    ],
    [
      'moveProject (foreign folder)',
      'PATCH',
      () => `/projects/${ownProject}/folder`,
      () => ({ folderId: foreign.folderId }),
      'folder_not_found',
    ],
    ['archiveProject', 'POST', () => `/projects/${foreign.projectId}/archive`, () => undefined, 'project_not_found'],
    [
      'archiveProjectBinding',
      'POST',
      () => `/projects/${foreign.projectId}/binding/archive`,
      () => undefined,
      'project_not_found',
    ],
    [
      'listProjectSessions',
      'GET',
      () => `/projects/${foreign.projectId}/sessions`,
      () => undefined,
      'project_not_found',
    ],
    [
      'listProjectTeamAccess',
      'GET',
      () => `/projects/${foreign.projectId}/team-access`,
      () => undefined,
      'project_not_found',
    ],
    ['getProjectAccess', 'GET', () => `/projects/${foreign.projectId}/access`, () => undefined, 'project_not_found'],
    [
      'putProjectTeamAccess',
      'PUT',
      () => `/projects/${foreign.projectId}/team-access`,
      () => ({ teamSlug: 'team-read', role: 'READ' }),
      'project_not_found',
    ],
    [
      'putProjectTeamAccess (foreign team)',
      'PUT',
      () => `/projects/${ownProject}/team-access`,
      () => ({ teamId: foreign.teamId, role: 'READ' }),
      'team_not_found',
    ],
    [
      'deleteProjectTeamAccess',
      'DELETE',
      () => `/projects/${foreign.projectId}/team-access/${ownTeam}`,
      () => undefined,
      'project_not_found',
    ],
    [
      'deleteProjectTeamAccess (foreign team)',
      'DELETE',
      () => `/projects/${ownProject}/team-access/${foreign.teamId}`,
      () => undefined,
      'grant_not_found',
    ],
    [
      'updateAgentLibraryFolder',
      'PATCH',
      () => `/agent-library/folders/${foreign.libraryFolderId}`,
      () => ({ name: 'x' }),
      'folder_not_found',
    ],
    [
      'updateAgentLibraryFolder (foreign parent)',
      'PATCH',
      () => `/agent-library/folders/${ownLibraryFolder}`,
      () => ({ parentId: foreign.libraryFolderId }),
      'folder_not_found',
    ],
    [
      'archiveAgentLibraryFolder',
      'POST',
      () => `/agent-library/folders/${foreign.libraryFolderId}/archive`,
      () => undefined,
      'folder_not_found',
    ],
    [
      'createAgentLibraryFolder (foreign parent)',
      'POST',
      () => '/agent-library/folders',
      () => ({ name: 'x', parentId: foreign.libraryFolderId }),
      'folder_not_found',
    ],
    [
      'putAgentRole (foreign library folder)',
      'PUT',
      () => `/agent-roles/${ownRole}`,
      () => ({ label: 'x', libraryFolderId: foreign.libraryFolderId }),
      'folder_not_found',
    ],
    [
      'updateAgentSkill (foreign library folder)',
      'PATCH',
      () => '/agent-skills/own-skill',
      () => ({ libraryFolderId: foreign.libraryFolderId }),
      'folder_not_found',
    ],
    [
      'getAgentSkillFiles',
      'GET',
      () => `/agent-skills/${foreignIds.skillName}/files`,
      () => undefined,
      'skill_not_found',
    ],
    [
      'updateAgentSkill',
      'PATCH',
      () => `/agent-skills/${foreignIds.skillName}`,
      () => ({ disabled: true }),
      'skill_not_found',
    ],
    [
      'updateAgentRole',
      'PATCH',
      () => `/agent-roles/${foreignIds.roleId}`,
      () => ({ disabled: true }),
      'role_not_found',
    ],
    [
      'disableProviderConnection',
      'DELETE',
      () => `/provider-connections/${foreignIds.providerId}`,
      () => undefined,
      'connection_not_found',
    ],
    [
      'disableCapabilityConnection',
      'DELETE',
      () => `/capability-connections/${foreignIds.capabilityId}`,
      () => undefined,
      'connection_not_found',
    ],
    [
      'getUsageBreakdown (foreign project)',
      'GET',
      () => `/usage/breakdown?projectId=${foreign.projectId}`,
      () => undefined,
      'project_not_found',
    ],
    [
      'getUsageBreakdown (foreign folder)',
      'GET',
      () => `/usage/breakdown?folderId=${foreign.folderId}`,
      () => undefined,
      'folder_not_found',
    ],
    [
      'getUsageSeries (foreign folder)',
      'GET',
      () => `/usage/series?from=2026-11-01T00:00:00Z&to=2026-11-08T00:00:00Z&folderId=${foreign.folderId}`,
      () => undefined,
      'folder_not_found',
    ],
  ];

  for (const [name, method, path, body, code] of cases) {
    it(`${name} → 404 ${code}, nothing changed`, async () => {
      const before = await writes.counts();
      const res = await as('owner', method, path(), body());
      expect(res.status, res.text).toBe(404);
      expect(errorBody(res).error.code).toBe(code);
      expect(await writes.writtenSince(before)).toEqual([]);
    });
  }

  it('lists none of the other organization’s capability connections, library folders or skills', async () => {
    const connections = await okBody(call('owner', 'listCapabilityConnections'));
    expect(connections.connections.map((c) => c.capabilityId)).not.toContain(foreignIds.capabilityId);
    const library = await okBody(call('owner', 'getAgentLibrary'));
    expect(library.folders.map((f) => f.id)).not.toContain(foreign.libraryFolderId);
    const skills = await okBody(call('owner', 'listAgentSkills'));
    expect(skills.skills.map((s) => s.name)).not.toContain(foreignIds.skillName);
  });
});

/**
 * The caller's own sign-in identities (`/api/me/identities`): any signed-in person, for themselves
 * only; nobody without a session, and no API token (they work on organization paths only). An id
 * the caller does not hold is 404 `identity_not_found`, whoever holds it.
 */
describe('authorization matrix: the caller’s own identities', () => {
  const signedIn = ACTORS.filter((actor) => actor !== 'anonymous');
  const cases: Array<[string, string, (actor: Actor) => Outcome]> = [
    ['GET', '/api/me/identities', (actor) => (actor === 'anonymous' ? [401, 'unauthenticated'] : [200])],
    [
      'DELETE',
      '/api/me/identities/no-such-identity',
      (actor) => (actor === 'anonymous' ? [401, 'unauthenticated'] : [404, 'identity_not_found']),
    ],
  ];
  for (const [method, path, outcomeOf] of cases) {
    for (const actor of ['anonymous' as const, ...signedIn]) {
      const [status, code] = outcomeOf(actor);
      it(`${method} ${path} as ${actor} → ${status}${code ? ` ${code}` : ''}`, async () => {
        const before = await writes.counts();
        const res = await hub.request(method, path, { cookie: cookies[actor] });
        expect(res.status, res.text).toBe(status);
        if (code) expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
        else expect(res.body).toEqual({ identities: [] });
        expect(await writes.writtenSince(before)).toEqual([]);
      });
    }
    it(`${method} ${path} with an owner's API token → 401 unauthenticated`, async () => {
      const token = await okBody(
        call('owner', 'createApiToken', { body: { name: unique('me-token'), scopes: ['members:read'] } }),
        201,
      );
      const res = await hub.request(method, path, { headers: { authorization: `Bearer ${token.token}` } });
      expect(res.status, res.text).toBe(401);
      expect(res.body).toEqual({ error: { code: 'unauthenticated', message: expect.any(String) } });
    });
  }
});

/**
 * The organization's own life: its rename, deletion, restore, ownership and a member's leave.
 * Each call addresses an organization of its own with the same people in it (the owner its
 * OWNER, the admin its ADMIN, every member kind a MEMBER), as a successful call renames it,
 * deletes it or takes someone out of it. A refused call changes nothing.
 */
describe('authorization matrix: the organization’s life', () => {
  const ownerOnly = outcomes(200, (a) => (a === 'owner' ? undefined : [403, 'owner_required']));
  const recipient: Actor = 'memberNoGrant';
  let slug = '';
  const callIn = <O extends OrgOperationId>(actor: Actor, operationId: O, ...input: OrgCallArgs<O>) =>
    hub.orgCall(slug, cookies[actor], operationId, ...input);
  const offerToRecipient = async () =>
    (await okBody(callIn('owner', 'createOwnershipTransfer', { body: { toUserId: userIds[IM[recipient]]! } }), 201)).id;

  const lifeRows: Row[] = [
    {
      op: 'renameOrganization',
      method: 'PATCH',
      prepare: async () => ({ path: '', body: { name: 'Renamed' } }),
      expect: ownerOnly,
    },
    { op: 'deleteOrganization', method: 'DELETE', prepare: async () => ({ path: '' }), expect: ownerOnly },
    {
      op: 'restoreOrganization',
      method: 'POST',
      prepare: async () => {
        await okBody(callIn('owner', 'deleteOrganization'));
        return { path: '/restore' };
      },
      expect: ownerOnly,
    },
    {
      op: 'listOwnershipTransfers',
      method: 'GET',
      prepare: async () => ({ path: '/ownership-transfers' }),
      expect: anyMember(200),
    },
    {
      op: 'createOwnershipTransfer',
      method: 'POST',
      prepare: async () => ({ path: '/ownership-transfers', body: { toUserId: userIds[IM.admin] } }),
      expect: outcomes(201, (a) => (a === 'owner' ? undefined : [403, 'owner_required'])),
    },
    {
      op: 'acceptOwnershipTransfer',
      method: 'POST',
      prepare: async () => ({ path: `/ownership-transfers/${await offerToRecipient()}/accept` }),
      expect: outcomes(200, (a) => (a === recipient ? undefined : [403, 'transfer_not_yours'])),
    },
    {
      op: 'cancelOwnershipTransfer',
      method: 'POST',
      prepare: async () => ({ path: `/ownership-transfers/${await offerToRecipient()}/cancel` }),
      expect: outcomes(200, (a) => (a === recipient || a === 'owner' ? undefined : [403, 'transfer_not_yours'])),
    },
    {
      op: 'leaveOrganization',
      method: 'POST',
      prepare: async () => ({ path: '/members/me/leave' }),
      expect: outcomes(200, (a) => (a === 'owner' ? [409, 'last_owner'] : undefined)),
    },
  ];

  for (const row of lifeRows) {
    describe(row.op, () => {
      for (const actor of ACTORS) {
        const [status, code] = row.expect[actor];
        it(`${actor} → ${status}${code ? ` ${code}` : ''}`, async () => {
          slug = unique('life');
          const org = await hub.createOrg(slug, IM.owner);
          await hub.addMembership(org.id, IM.admin, 'ADMIN');
          for (const member of MEMBERS) await hub.addMembership(org.id, IM[member as keyof typeof IM], 'MEMBER');
          const { path, body } = await row.prepare();
          const before = status >= 400 ? await writes.counts() : undefined;
          const res = await hub.request(row.method, `/api/org/${slug}${path}`, { cookie: cookies[actor], body });
          expect(res.status, res.text).toBe(status);
          if (code) expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
          if (before !== undefined) expect(await writes.writtenSince(before)).toEqual([]);
        });
      }
    });
  }
});

/**
 * The caller themself (`GET /api/me`): any signed-in person, whichever organizations they belong
 * to; nobody without a session.
 */
describe('authorization matrix: the caller', () => {
  for (const actor of ACTORS) {
    const [status, code]: Outcome = actor === 'anonymous' ? [401, 'unauthenticated'] : [200];
    it(`getMe as ${actor} → ${status}${code ? ` ${code}` : ''}`, async () => {
      const res = await hub.request('GET', '/api/me', { cookie: cookies[actor] });
      expect(res.status, res.text).toBe(status);
      if (code) expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
      else expect((res.body as { user: { id: string } }).user.id).toBe(userIds[IM[actor as keyof typeof IM]]);
    });
  }
});

/**
 * The caller's own sessions, name and access requests (`/api/me/…`): any signed-in person, for
 * themselves only; nobody without a session, and no API token. A session id the caller does not
 * hold is 404 `session_not_found`, whoever holds it.
 */
describe('authorization matrix: the caller’s own sessions, name and requests', () => {
  const signedIn = ACTORS.filter((actor) => actor !== 'anonymous');
  const cases: Array<[method: string, path: string, body: unknown, success: Outcome]> = [
    ['GET', '/api/me/sessions', undefined, [200]],
    ['DELETE', '/api/me/sessions/no-such-session', undefined, [404, 'session_not_found']],
    ['POST', '/api/me/sessions/revoke-others', undefined, [200]],
    ['GET', '/api/me/access-requests', undefined, [200]],
  ];
  for (const [method, path, body, [status, code]] of cases) {
    for (const actor of ['anonymous' as const, ...signedIn]) {
      const [expected, expectedCode] = actor === 'anonymous' ? [401, 'unauthenticated'] : [status, code];
      it(`${method} ${path} as ${actor} → ${expected}${expectedCode ? ` ${expectedCode}` : ''}`, async () => {
        const before = expected >= 400 ? await writes.counts() : undefined;
        const res = await hub.request(method, path, { cookie: cookies[actor], body });
        expect(res.status, res.text).toBe(expected);
        if (expectedCode) expect(res.body).toEqual({ error: { code: expectedCode, message: expect.any(String) } });
        if (before !== undefined) expect(await writes.writtenSince(before)).toEqual([]);
      });
    }
    it(`${method} ${path} with an owner's API token → 401 unauthenticated`, async () => {
      const token = await okBody(
        call('owner', 'createApiToken', { body: { name: unique('me-token'), scopes: ['members:read'] } }),
        201,
      );
      const res = await hub.request(method, path, { headers: { authorization: `Bearer ${token.token}` } });
      expect(res.status, res.text).toBe(401);
      expect(res.body).toEqual({ error: { code: 'unauthenticated', message: expect.any(String) } });
    });
  }

  it('PATCH /api/me: every signed-in person names themselves, nobody else does', async () => {
    expect((await hub.request('PATCH', '/api/me', { body: { displayName: 'Nobody' } })).status).toBe(401);
    for (const actor of signedIn) {
      const me = await okBody(hub.call('getMe', { cookie: cookies[actor] }));
      const res = await hub.request('PATCH', '/api/me', {
        cookie: cookies[actor],
        body: { displayName: me.user.displayName },
      });
      expect(res.status, res.text).toBe(200);
    }
  });
});
