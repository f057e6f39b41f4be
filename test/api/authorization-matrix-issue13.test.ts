import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTORS, seedActors, type ActorName } from '../support/actors.js';
import { errorBody, okBody } from '../support/assertions.js';
import { TestHub } from '../support/test-hub.js';

/**
 * The operations added by the usage-breakdown / capability-connection / agent-library /
 * disable issue, each called by every kind of caller: all of them are org-admin operations.
 * A refused call must leave every table it could write as it was; an id from another
 * organization is that resource's 404, and changes nothing either.
 */

let hub: TestHub;
let cookies: Record<ActorName, string | undefined>;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

const as = (actor: ActorName, method: string, path: string, body?: unknown) => hub.request(method, `/api/org/acme${path}`, { cookie: cookies[actor], body });
const asOwner = (method: string, path: string, body?: unknown) => okBody(as('owner', method, path, body));
const asGlobex = (method: string, path: string, body?: unknown) => okBody(hub.request(method, `/api/org/globex${path}`, { cookie: cookies.otherOrgOwner, body }));

const TABLES: Array<[string, string]> = [
  ['library_folders', 'id'],
  ['agent_roles', 'id'],
  ['agent_skills', 'id'],
  ['agent_sessions', 'id'],
  ['provider_connections', 'id'],
  ['provider_connection_versions', 'connection_id'],
  ['capability_connections', 'id'],
  ['capability_connection_versions', 'connection_id'],
  ['organization_capacity_limits', 'dimension'],
];

async function snapshot(): Promise<string> {
  const parts: unknown[] = [];
  for (const [table, order] of TABLES) parts.push(await hub.services.db(table).select().orderBy(order));
  return JSON.stringify(parts);
}

const freshLibraryFolder = async () => ((await asOwner('POST', '/agent-library/folders', { name: unique('Lib') })) as { id: string }).id;
async function freshRole(): Promise<string> {
  const roleId = unique('role');
  await asOwner('PUT', `/agent-roles/${roleId}`, { label: roleId });
  return roleId;
}
async function freshProvider(): Promise<string> {
  const providerId = unique('prov');
  await asOwner('PUT', `/provider-connections/${providerId}`, { baseUrl: 'https://api.example.com', authToken: 'sk-x' });
  return providerId;
}
async function freshCapability(): Promise<string> {
  const capabilityId = unique('cap');
  await asOwner('PUT', `/capability-connections/${capabilityId}`, { label: 'Search', kind: 'http', endpointUrl: 'https://search.example.com' });
  return capabilityId;
}

interface Row {
  op: string;
  method: string;
  prepare: () => Promise<{ path: string; body?: unknown }>;
  success: number;
}

const rows: Row[] = [
  { op: 'getUsageBreakdown', method: 'GET', prepare: async () => ({ path: '/usage/breakdown' }), success: 200 },
  { op: 'listCapabilityConnections', method: 'GET', prepare: async () => ({ path: '/capability-connections' }), success: 200 },
  {
    op: 'putCapabilityConnection',
    method: 'PUT',
    prepare: async () => ({ path: `/capability-connections/${unique('cap')}`, body: { label: 'Docs', kind: 'mcp', endpointUrl: 'https://mcp.example.com', headers: { Authorization: 'Bearer s' } } }),
    success: 200,
  },
  { op: 'disableCapabilityConnection', method: 'DELETE', prepare: async () => ({ path: `/capability-connections/${await freshCapability()}` }), success: 200 },
  { op: 'disableProviderConnection', method: 'DELETE', prepare: async () => ({ path: `/provider-connections/${await freshProvider()}` }), success: 200 },
  { op: 'updateAgentRole', method: 'PATCH', prepare: async () => ({ path: `/agent-roles/${await freshRole()}`, body: { disabled: true } }), success: 200 },
  { op: 'getAgentLibrary', method: 'GET', prepare: async () => ({ path: '/agent-library' }), success: 200 },
  { op: 'createAgentLibraryFolder', method: 'POST', prepare: async () => ({ path: '/agent-library/folders', body: { name: unique('New') } }), success: 201 },
  { op: 'updateAgentLibraryFolder', method: 'PATCH', prepare: async () => ({ path: `/agent-library/folders/${await freshLibraryFolder()}`, body: { name: 'Renamed' } }), success: 200 },
  { op: 'archiveAgentLibraryFolder', method: 'POST', prepare: async () => ({ path: `/agent-library/folders/${await freshLibraryFolder()}/archive` }), success: 200 },
];

const DENIED: Partial<Record<ActorName, [number, string]>> = {
  anonymous: [401, 'unauthenticated'],
  otherOrgOwner: [404, 'org_not_found'],
  member: [403, 'org_admin_required'],
};

beforeAll(async () => {
  hub = await TestHub.start();
  cookies = await seedActors(hub);
});
afterAll(() => hub.stop());

describe('authorization matrix of the new operations', () => {
  for (const row of rows) {
    describe(row.op, () => {
      for (const actor of ACTORS) {
        const [status, code] = DENIED[actor] ?? [row.success];
        it(`${actor} → ${status}${code ? ` ${code}` : ''}`, async () => {
          const { path, body } = await row.prepare();
          const before = code ? await snapshot() : undefined;
          const res = await as(actor, row.method, path, body);
          expect(res.status, res.text).toBe(status);
          if (code) {
            expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
            expect(await snapshot()).toBe(before);
          }
        });
      }
    });
  }
});

describe('ids from another organization', () => {
  const foreign = { folderId: '', roleId: 'globex-role', providerId: 'globex-prov', capabilityId: 'globex-cap', projectId: '', skill: 'globex-skill' };
  let ownFolder: string;
  let ownRole: string;
  beforeAll(async () => {
    foreign.folderId = ((await asGlobex('POST', '/agent-library/folders', { name: 'Theirs' })) as { id: string }).id;
    await asGlobex('PUT', `/agent-roles/${foreign.roleId}`, { label: 'Theirs' });
    await asGlobex('PUT', `/provider-connections/${foreign.providerId}`, { baseUrl: 'https://api.example.com', authToken: 'sk-theirs' });
    await asGlobex('PUT', `/capability-connections/${foreign.capabilityId}`, { label: 'Theirs', kind: 'http', endpointUrl: 'https://theirs.example.com' });
    foreign.projectId = ((await asGlobex('POST', '/projects', { name: 'Theirs' })) as { id: string }).id;
    ownFolder = await freshLibraryFolder();
    ownRole = await freshRole();
    await asOwner('PUT', '/agent-skills/own-skill', { version: '1', files: [{ path: 'SKILL.md', content: '---\nname: own-skill\n---\n' }] });
  });

  const cases: Array<[string, string, () => string, () => unknown, string]> = [
    ['updateAgentLibraryFolder', 'PATCH', () => `/agent-library/folders/${foreign.folderId}`, () => ({ name: 'x' }), 'folder_not_found'],
    ['updateAgentLibraryFolder (foreign parent)', 'PATCH', () => `/agent-library/folders/${ownFolder}`, () => ({ parentId: foreign.folderId }), 'folder_not_found'],
    ['archiveAgentLibraryFolder', 'POST', () => `/agent-library/folders/${foreign.folderId}/archive`, () => undefined, 'folder_not_found'],
    ['createAgentLibraryFolder (foreign parent)', 'POST', () => '/agent-library/folders', () => ({ name: 'x', parentId: foreign.folderId }), 'folder_not_found'],
    ['putAgentRole (foreign library folder)', 'PUT', () => `/agent-roles/${ownRole}`, () => ({ label: 'x', libraryFolderId: foreign.folderId }), 'folder_not_found'],
    ['updateAgentSkill (foreign library folder)', 'PATCH', () => '/agent-skills/own-skill', () => ({ libraryFolderId: foreign.folderId }), 'folder_not_found'],
    ['updateAgentRole', 'PATCH', () => `/agent-roles/${foreign.roleId}`, () => ({ disabled: true }), 'role_not_found'],
    ['disableProviderConnection', 'DELETE', () => `/provider-connections/${foreign.providerId}`, () => undefined, 'connection_not_found'],
    ['disableCapabilityConnection', 'DELETE', () => `/capability-connections/${foreign.capabilityId}`, () => undefined, 'connection_not_found'],
    ['getUsageBreakdown (foreign project)', 'GET', () => `/usage/breakdown?projectId=${foreign.projectId}`, () => undefined, 'project_not_found'],
  ];

  it.each(cases)('%s → 404, nothing changed', async (_name, method, path, body, code) => {
    const before = await snapshot();
    const refused = await as('owner', method, path(), body());
    expect([refused.status, errorBody(refused).error.code], refused.text).toEqual([404, code]);
    expect(await snapshot()).toBe(before);
  });

  it('lists none of the other organization’s capability connections or library folders', async () => {
    const connections = (await asOwner('GET', '/capability-connections')) as { connections: Array<{ capabilityId: string }> };
    expect(connections.connections.map((c) => c.capabilityId)).not.toContain(foreign.capabilityId);
    const library = (await asOwner('GET', '/agent-library')) as { folders: Array<{ id: string }> };
    expect(library.folders.map((f) => f.id)).not.toContain(foreign.folderId);
  });
});
