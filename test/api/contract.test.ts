import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { AREA_SCOPES } from '../../src/api-tokens/scopes.js';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../src/auth/rules.js';
import { listOperations, loadOpenApiDocument } from '../../src/http/openapi-document.js';
import { buildOperationTable } from '../../src/app/operations.js';
import type { OperationTable } from '../../src/http/operation-table.js';
import { memberProjection } from '../../src/members/projection.js';
import type { ListOrder } from '../../src/shared/pagination.js';
import { ListedText } from '../../src/shared/listed-text.js';
import { contractViolations } from '../support/response-contract.js';
import { TestHub } from '../support/test-hub.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const doc = loadOpenApiDocument();
const operations = listOperations(doc);

/** The first operation ids (docs/decisions.md, "Operation ids and schema names"), in their order. */
const OPERATION_IDS = [
  'getMe',
  'logout',
  'getOrganization',
  'getOrgSettings',
  'updateOrgSettings',
  'login',
  'listMembers',
  'addMember',
  'updateMemberRole',
  'revokeMember',
  'listTeams',
  'createTeam',
  'updateTeam',
  'archiveTeam',
  'listTeamMembers',
  'addTeamMember',
  'revokeTeamMember',
  'getExplorer',
  'listMyProjects',
  'createFolder',
  'updateFolder',
  'archiveFolder',
  'createProject',
  'getProject',
  'renameProject',
  'moveProject',
  'archiveProject',
  'archiveProjectBinding',
  'listProjectSessions',
  'listProjectTeamAccess',
  'putProjectTeamAccess',
  'deleteProjectTeamAccess',
  'getUsageReport',
  'listProviderConnections',
  'rotateProviderConnection',
  'getChatApplicationConnection',
  'putChatApplicationConnection',
  'disableChatApplicationConnection',
  'getCapacityPolicy',
  'updateCapacityPolicy',
  'listAgentRoles',
  'putAgentRole',
  'putAgentRoleSkills',
  'listAgentSkills',
  'getAgentSkillFiles',
  'installAgentSkill',
  'updateAgentSkill',
  'listAgentModels',
];

/**
 * The operations added beside them: disabling, usage facts, external capabilities,
 * the agent library, API tokens, the audit log.
 */
const SECOND_WAVE_OPERATION_IDS = [
  'updateAgentRole',
  'disableProviderConnection',
  'getAgentLibrary',
  'createAgentLibraryFolder',
  'updateAgentLibraryFolder',
  'archiveAgentLibraryFolder',
  'listCapabilityConnections',
  'putCapabilityConnection',
  'disableCapabilityConnection',
  'getUsageBreakdown',
  'createApiToken',
  'listApiTokens',
  'revokeApiToken',
  'listAuditEvents',
];

/** Service accounts, token rotation and what a member's leaving stops. */
const SERVICE_ACCOUNT_OPERATION_IDS = [
  'listServiceAccounts',
  'createServiceAccount',
  'getServiceAccount',
  'updateServiceAccount',
  'deleteServiceAccount',
  'disableServiceAccount',
  'enableServiceAccount',
  'rotateApiToken',
  'getMemberDeparture',
];

/** The agent runtime's API: runs it reports, credentials it resolves with the host's credential. */
const RUNTIME_OPERATION_IDS = ['ingestUsageRuns', 'resolveRuntimeCredential'];

/** Sign-in with identity providers: public, browser-facing routes under /auth. */
const SIGN_IN_OPERATION_IDS = ['listSignInProviders', 'startSignIn', 'finishSignIn'];
/** The signed-in person's own sign-in identities ("Connected sign-ins" on the profile page). */
const MY_IDENTITY_OPERATION_IDS = ['listMyIdentities', 'removeMyIdentity'];
/** Invitations: the admins' three in the organization, the invitee's two by the link's token. */
const INVITATION_OPERATION_IDS = [
  'createInvitation',
  'listInvitations',
  'revokeInvitation',
  'getInvitation',
  'acceptInvitation',
  // The signed-in person's own invitations, by their verified email.
  'listMyInvitations',
  'acceptMyInvitation',
];
/** Webhooks: endpoints, their secrets and their deliveries; org admins only. */
const WEBHOOK_OPERATION_IDS = [
  'listWebhooks',
  'createWebhook',
  'updateWebhook',
  'deleteWebhook',
  'rotateWebhookSecret',
  'testWebhook',
  'listWebhookDeliveries',
  'redeliverWebhookDelivery',
];
/** Effective access: who can open a project, and a team's project grants. */
const ACCESS_OPERATION_IDS = ['getProjectAccess', 'listTeamProjects'];
/** Budgets and spend alerts: budgets with their live status; org admins only. */
const BUDGET_OPERATION_IDS = ['listBudgets', 'listBudgetMembers', 'createBudget', 'updateBudget', 'deleteBudget'];
/** Domains an organization owns, verified through DNS; org admins only. */
const DOMAIN_OPERATION_IDS = ['listDomains', 'addDomain', 'verifyDomain', 'updateDomain', 'deleteDomain'];
/** Usage policies and admission; org admins only. */
const POLICY_OPERATION_IDS = ['listPolicies', 'createPolicy', 'getPolicy', 'updatePolicy', 'deletePolicy', 'admitRun'];
/** The signed-in person's own name and sessions, and an org admin signing a member out everywhere. */
const MY_SESSION_OPERATION_IDS = ['updateMe', 'listMySessions', 'revokeMySession', 'revokeOtherSessions'];
const SIGN_OUT_OPERATION_IDS = ['signOutMember'];
/** Access requests: asked by a member, decided by the project's approvers; the person's own list. */
const ACCESS_REQUEST_OPERATION_IDS = [
  'listAccessRequests',
  'createAccessRequest',
  'approveAccessRequest',
  'denyAccessRequest',
  'withdrawAccessRequest',
  'listMyAccessRequests',
];
/** An organization's own identity providers and their directory mappings; org admins only. */
const ORG_IDENTITY_PROVIDER_OPERATION_IDS = [
  'listOrgIdentityProviders',
  'createOrgIdentityProvider',
  'updateOrgIdentityProvider',
  'deleteOrgIdentityProvider',
  'testOrgIdentityProvider',
];
/** Usage at scale: the usage series (org admins only), and a member's own usage. */
const USAGE_SERIES_OPERATION_IDS = ['getUsageSeries', 'getMyUsage'];
/** The organization's life: rename, ownership, leaving, deletion; and the projects nobody manages. */
const LIFECYCLE_OPERATION_IDS = [
  'renameOrganization',
  'deleteOrganization',
  'restoreOrganization',
  'listOwnershipTransfers',
  'createOwnershipTransfer',
  'acceptOwnershipTransfer',
  'cancelOwnershipTransfer',
  'leaveOrganization',
  'listProjects',
];
/** Operations anyone may call, with no session or token. */
const PUBLIC_OPERATION_IDS = ['login', ...SIGN_IN_OPERATION_IDS];

const SCHEMA_NAMES = [
  'MeResponse',
  'OrgMembership',
  'OrgMember',
  'TeamRow',
  'TeamMemberRow',
  'ExplorerFolder',
  'ExplorerProject',
  'ExplorerData',
  'ProjectDetail',
  'TeamAccessEntry',
  'SessionSummary',
  'ProviderConnectionRow',
  'ChatApplicationConnection',
  'UsageTotals',
  'ProjectUsageRow',
  'UsageReport',
  'CapacityDimension',
  'CapacityDimensionRow',
  'CapacityPolicyView',
  'AgentRoleRow',
  'AgentSkillRow',
  'SkillFileEntry',
  'InstalledSkillResult',
  'AgentModelRow',
  'Error',
];

const CAPACITY_DIMENSIONS = [
  'requestRate',
  'requestBodySize',
  'agentConcurrency',
  'admissionQueueLength',
  'admissionQueueWait',
  'fileSize',
  'attachmentCount',
  'archiveExpansion',
  'projectStorage',
  'organizationStorage',
  'memberCount',
  'projectCount',
  'teamCount',
  'folderCount',
  'sessionCount',
  'runWallTime',
  'runTurns',
  'runToolCalls',
  'toolWallTime',
  'runOutputSize',
  'processMemory',
  'processCpu',
  'processCount',
];

/** The parts of a JSON Schema these checks read. */
interface JsonSchema {
  $ref?: string;
  enum?: unknown[];
  additionalProperties?: unknown;
}

const schemas = (doc.components as { schemas: Record<string, JsonSchema> }).schemas;

describe('openapi.yaml', () => {
  it('is OpenAPI 3.1 with exactly the decided operations, login and sign-in included', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(operations.map((o) => o.operationId).sort()).toEqual(
      [
        ...OPERATION_IDS,
        ...SECOND_WAVE_OPERATION_IDS,
        ...SIGN_IN_OPERATION_IDS,
        ...MY_IDENTITY_OPERATION_IDS,
        ...INVITATION_OPERATION_IDS,
        ...WEBHOOK_OPERATION_IDS,
        ...ACCESS_OPERATION_IDS,
        ...BUDGET_OPERATION_IDS,
        ...USAGE_SERIES_OPERATION_IDS,
        ...DOMAIN_OPERATION_IDS,
        ...LIFECYCLE_OPERATION_IDS,
        ...SERVICE_ACCOUNT_OPERATION_IDS,
        ...MY_SESSION_OPERATION_IDS,
        ...SIGN_OUT_OPERATION_IDS,
        ...ACCESS_REQUEST_OPERATION_IDS,
        ...ORG_IDENTITY_PROVIDER_OPERATION_IDS,
        ...POLICY_OPERATION_IDS,
        ...RUNTIME_OPERATION_IDS,
      ].sort(),
    );
    expect(OPERATION_IDS).toHaveLength(48);
  });

  it('names every resource schema after its resource', () => {
    for (const name of SCHEMA_NAMES) expect(schemas, name).toHaveProperty(name);
  });

  it('has exactly the 23 capacity dimensions', () => {
    expect(schemas.CapacityDimension?.enum).toEqual(CAPACITY_DIMENSIONS);
  });

  it('puts org-scoped paths under /api/org/{orgSlug} the rest under /api/me, /auth and /api/invitations', () => {
    const ALLOWED_PATH = new RegExp(
      [
        '^/api/org/\\{orgSlug\\}',
        '^/api/me$',
        '^/api/me/invitations(/\\{invitationId\\}/accept)?$',
        '^/api/me/identities(/\\{identityId\\})?$',
        '^/api/me/sessions(/\\{sessionId\\}|/revoke-others)?$',
        '^/api/me/access-requests$',
        '^/auth/(login|logout|providers)$',
        '^/auth/\\{providerId\\}/(start|callback)$',
        '^/api/invitations/\\{token\\}(/accept)?$',
      ].join('|'),
    );
    for (const { path: p } of operations) expect(p).toMatch(ALLOWED_PATH);
  });

  it('gives every operation a summary, a tag and error responses; every mutation lists the CSRF 403', () => {
    for (const { operationId, method, operation } of operations) {
      const responses = operation.responses as Record<string, unknown>;
      expect(operation.summary, operationId).toBeTruthy();
      expect(operation.tags, operationId).toHaveLength(1);
      expect(responses, operationId).toHaveProperty('default');
      expect(
        Object.keys(responses).some((s) => s.startsWith('4')),
        operationId,
      ).toBe(true);
      if (method !== 'get') expect(responses, operationId).toHaveProperty('403');
    }
  });

  it('closes every request body to unknown properties', () => {
    const resolve = (ref: string) => schemas[ref.split('/').pop()!];
    for (const { operationId, operation } of operations) {
      const content = (operation.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)
        ?.content?.['application/json'];
      if (!content) continue;
      const schema = content.schema.$ref ? resolve(content.schema.$ref) : content.schema;
      // A batch of runs is an array whose items the ingest checks, naming their lines.
      if (operationId === 'ingestUsageRuns') {
        expect(schema, operationId).toMatchObject({ type: 'array', items: { type: 'object' } });
        continue;
      }
      expect(schema?.additionalProperties, operationId).toBe(false);
    }
  });

  it('guards with the hub_session cookie or an API token; session-only operations say so', () => {
    const schemes = (doc.components as { securitySchemes: Record<string, unknown> }).securitySchemes;
    expect(schemes).toEqual({
      hubSession: { type: 'apiKey', in: 'cookie', name: 'hub_session', description: expect.any(String) },
      apiToken: { type: 'http', scheme: 'bearer', description: expect.any(String) },
      runtimeCredential: { type: 'http', scheme: 'bearer', description: expect.any(String) },
    });
    expect(doc.security).toEqual([{ hubSession: [] }, { apiToken: [] }]);
    for (const { operationId, operation } of operations) {
      const { scope, rule } = operation['x-authorization'] ?? {};
      if (PUBLIC_OPERATION_IDS.includes(operationId)) expect(operation.security, operationId).toEqual([]);
      else if (rule === 'platformRuntime') expect(operation.security, operationId).toEqual([{ runtimeCredential: [] }]);
      else if (scope === undefined) expect(operation.security, operationId).toEqual([{ hubSession: [] }]);
      else expect(operation.security, operationId).toBeUndefined();
    }
  });

  it('names a known token scope for every organization operation but the token operations themselves', () => {
    const sessionOnly = [
      'getMe',
      ...PUBLIC_OPERATION_IDS,
      'logout',
      'createApiToken',
      'listApiTokens',
      'revokeApiToken',
      'rotateApiToken',
      // A person's own answer to a link, not an organization's operation.
      'getInvitation',
      'acceptInvitation',
      'listMyInvitations',
      'acceptMyInvitation',
      ...MY_IDENTITY_OPERATION_IDS,
      // A person's own acts on the organization's existence and ownership, never an integration's.
      'deleteOrganization',
      'restoreOrganization',
      'createOwnershipTransfer',
      'acceptOwnershipTransfer',
      'cancelOwnershipTransfer',
      'leaveOrganization',
      ...MY_SESSION_OPERATION_IDS,
      'listMyAccessRequests',
      // Asked and withdrawn by the person, in their own name.
      'createAccessRequest',
      'withdrawAccessRequest',
    ];
    for (const { operationId, operation } of operations) {
      const { scope, rule, runtime } = operation['x-authorization'] ?? {};
      // The host's runtime's own operations take its platform credential, never a token.
      if (sessionOnly.includes(operationId) || rule === 'platformRuntime') expect(scope, operationId).toBeUndefined();
      else expect(AREA_SCOPES, `${operationId} has no token scope`).toContain(scope);
      // The runtime scope opens only what says so, and only operations a token may call at all.
      if (runtime !== undefined) expect([runtime, scope !== undefined], operationId).toEqual([true, true]);
    }
  });
});

describe('declared authorization', () => {
  let hub: TestHub;
  let table: OperationTable;
  beforeAll(async () => {
    hub = await TestHub.start();
    table = buildOperationTable(hub.services);
  });
  afterAll(() => hub.stop());

  it('declares a rule for every operation, and the same one openapi.yaml publishes', () => {
    for (const { operationId, operation } of operations) {
      const declared = table[operationId as keyof OperationTable];
      expect(declared, `${operationId} has no declared rule`).toBeDefined();
      expect(RULES).toContain(declared.rule);
      expect(operation['x-authorization']?.rule, operationId).toBe(declared.rule);
    }
    expect(Object.keys(table).sort()).toEqual(operations.map((o) => o.operationId).sort());
  });
});

describe('the test client checks every answer against the contract', () => {
  /** A hub whose getOrganization and listMembers answer what `answers` says. */
  async function hubAnswering(answers: { organization?: unknown; members?: ListedText<unknown> }) {
    const hub = await TestHub.start({
      app: {
        adjustOperations: (table) => ({
          ...table,
          getOrganization: { rule: 'member', handle: async () => answers.organization as never },
          listMembers: {
            ...table.listMembers,
            handle: async () => ({ members: answers.members, nextCursor: null }) as never,
          },
        }),
      },
    });
    await hub.createOrg('acme', 'alice');
    return { hub, cookie: await hub.login('alice') };
  }
  const listed = (text: string) => new ListedText(Buffer.from(text), memberProjection.order as ListOrder<unknown>);
  const member = {
    userId: 'u1',
    imOpenId: 'alice',
    displayName: 'Alice',
    avatarUrl: null,
    role: 'OWNER',
    createdAt: '2026-01-01T00:00:00.000Z',
  };

  it('refuses an answer `res.json` serialized that breaks its schema', async () => {
    const { hub, cookie } = await hubAnswering({ organization: { organization: { id: 1 } } });
    try {
      await expect(hub.call('getOrganization', { path: { orgSlug: 'acme' }, cookie })).rejects.toThrow(
        /getOrganization \(GET \/api\/org\/acme\) answered 200: \/organization\/id must be string/,
      );
    } finally {
      await hub.stop();
    }
  });

  it('checks a list the database wrote as text in the very bytes sent', async () => {
    const { hub, cookie } = await hubAnswering({ members: listed(JSON.stringify([member])) });
    try {
      const sent = await hub.call('listMembers', { path: { orgSlug: 'acme' }, cookie });
      expect(sent.text).toBe(`{"members":${JSON.stringify([member])},"nextCursor":null}`);
    } finally {
      await hub.stop();
    }
    const wrongField = JSON.stringify([{ ...member, role: 'KING' }]);
    const twice = JSON.stringify([member]).replace('"role":"OWNER"', '"role":"OWNER","role":"ADMIN"');
    for (const [text, complaint] of [
      [wrongField, /\/members\/0\/role must be equal to one of the allowed values/],
      [twice, /\/members\/0\/role is given more than once/],
    ] as const) {
      const { hub: other, cookie: alice } = await hubAnswering({ members: listed(text) });
      try {
        await expect(other.call('listMembers', { path: { orgSlug: 'acme' }, cookie: alice })).rejects.toThrow(
          complaint,
        );
      } finally {
        await other.stop();
      }
    }
  });

  it('holds any other status to the error envelope, and the media type to what is documented', () => {
    const json = 'application/json; charset=utf-8';
    expect(contractViolations('GET', '/api/org/acme', { status: 418, contentType: json, text: '{}' })).toEqual([
      "getOrganization (GET /api/org/acme) answered 418: / must have required property 'error'",
    ]);
    expect(contractViolations('GET', '/api/org/acme', { status: 200, contentType: 'text/plain', text: '{}' })).toEqual([
      'getOrganization (GET /api/org/acme) answered 200 as text/plain, not one of application/json',
    ]);
    expect(contractViolations('GET', '/no/such/path', { status: 404, contentType: json, text: '{}' })).toEqual([]);
  });
});

describe('generated/', () => {
  it('is what openapi-typescript makes of openapi.yaml today', () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gen-')), 'openapi.d.ts');
    execFileSync(path.join(root, 'node_modules/.bin/openapi-typescript'), ['openapi.yaml', '-o', out], {
      cwd: root,
      stdio: 'pipe',
    });
    const committed = fs.readFileSync(path.join(root, 'generated/openapi.d.ts'), 'utf8');
    expect(
      committed.startsWith(
        '/**\n * This file was auto-generated by openapi-typescript.\n * Do not make direct changes',
      ),
    ).toBe(true);
    expect(fs.readFileSync(out, 'utf8') === committed, 'generated/ is stale: run npm run generate').toBe(true);
  });
});
