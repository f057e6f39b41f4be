import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleUnavailableError } from '../../src/agents/roles-service.js';
import { ConnectionUnavailableError } from '../../src/connections/resolver.js';
import { errorBody, expectError, okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { runLine, writeJsonl } from '../support/usage-runs.js';

/** Disabling an agent role (`updateAgentRole`) and a BYOK provider connection (`disableProviderConnection`). */

let hub: TestHub;
let counter = 0;
const freshOrg = () => seedOrg(hub, `off-${++counter}`);
const tick = () => hub.clock.advance(60_000);

beforeAll(async () => {
  hub = await TestHub.start();
});
afterAll(() => hub.stop());

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'disable-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** An open session of the role, made the way the runtime's runs make them (one run, through ingest). */
async function seedSession(org: OrgFixture, projectId: string, roleId: string): Promise<string> {
  const id = `session-${randomUUID()}`;
  const file = writeJsonl(tmp, `${id}.jsonl`, [runLine(projectId, id, '2026-01-01T00:00:00Z', { roleId })]);
  await hub.services.usage.ingest(org.id, file);
  return id;
}

const archivedAtOf = async (sessionId: string): Promise<string | null> =>
  (await hub.services
    .db('agent_sessions')
    .where({ id: sessionId })
    .first<{ archived_at: string | null }>('archived_at'))!.archived_at;
const disableRole = (org: OrgFixture, roleId: string, disabled = true) =>
  org.call('owner', 'updateAgentRole', { path: { roleId }, body: { disabled } });
const roleRow = async (org: OrgFixture, roleId: string) =>
  (await okBody(org.call('owner', 'listAgentRoles'))).roles.find((r) => r.roleId === roleId);

describe('updateAgentRole (disable a role)', () => {
  let org: OrgFixture;
  let project: string;
  beforeAll(async () => {
    org = await freshOrg();
    project = (await okBody(org.call('owner', 'createProject', { body: { name: 'Work' } }), 201)).id;
  });

  it('sets disabledAt and archives the role’s open sessions in one go, and only its own', async () => {
    await okBody(org.call('owner', 'putAgentRole', { path: { roleId: 'coder' }, body: { label: 'Coder' } }));
    await okBody(org.call('owner', 'putAgentRole', { path: { roleId: 'writer' }, body: { label: 'Writer' } }));
    const mine = [await seedSession(org, project, 'coder'), await seedSession(org, project, 'coder')];
    const theirs = await seedSession(org, project, 'writer');
    tick();
    const at = hub.clock.now().toISOString();
    const row = await okBody(disableRole(org, 'coder'));
    expect(row).toMatchObject({ roleId: 'coder', label: 'Coder', disabledAt: at, updatedAt: at, isDefault: false });
    for (const session of mine) expect(await archivedAtOf(session)).toBe(at);
    expect(await archivedAtOf(theirs)).toBeNull();
    // Marked in the list, which still holds it.
    expect((await roleRow(org, 'coder'))?.disabledAt).toBe(at);
    expect(
      (await okBody(org.call('owner', 'listProjectSessions', { path: { projectId: project } }))).sessions.map(
        (s) => s.roleId,
      ),
    ).toEqual(['writer']);
  });

  it('keeps the first disabledAt when disabled again, and archives sessions opened since', async () => {
    const first = (await roleRow(org, 'coder'))!.disabledAt;
    const late = await seedSession(org, project, 'coder');
    tick();
    const again = await okBody(disableRole(org, 'coder'));
    expect(again.disabledAt).toBe(first);
    expect(await archivedAtOf(late)).toBe(hub.clock.now().toISOString());
  });

  it('re-enables with disabled:false; archived sessions stay archived', async () => {
    const session = await seedSession(org, project, 'writer');
    await okBody(disableRole(org, 'writer'));
    const enabled = await okBody(disableRole(org, 'writer', false));
    expect(enabled.disabledAt).toBeNull();
    expect(await archivedAtOf(session)).not.toBeNull();
  });

  it(
    'refuses to disable the default role with 409 role_is_default, ' + 'and to make a disabled role the default',
    async () => {
      await okBody(
        org.call('owner', 'putAgentRole', { path: { roleId: 'lead' }, body: { label: 'Lead', isDefault: true } }),
      );
      const session = await seedSession(org, project, 'lead');
      const refused = await disableRole(org, 'lead');
      expectError(refused, 409, 'role_is_default');
      expect(errorBody(refused).error.message).toContain('lead');
      expect(await roleRow(org, 'lead')).toMatchObject({ isDefault: true, disabledAt: null });
      expect(await archivedAtOf(session)).toBeNull();

      await okBody(disableRole(org, 'coder'));
      expectError(
        await org.call('owner', 'putAgentRole', {
          path: { roleId: 'coder' },
          body: { label: 'Coder', isDefault: true },
        }),
        409,
        'role_is_default',
      );
      expect((await roleRow(org, 'lead'))?.isDefault).toBe(true);
      // Once another role is the default, the former one can be disabled.
      await okBody(
        org.call('owner', 'putAgentRole', { path: { roleId: 'writer' }, body: { label: 'Writer', isDefault: true } }),
      );
      expect((await okBody(disableRole(org, 'lead'))).disabledAt).not.toBeNull();
    },
  );

  it(
    'answers 404 role_not_found for an unknown role or one of another organization, ' + 'and 400 for a bad body',
    async () => {
      const other = await freshOrg();
      await okBody(other.call('owner', 'putAgentRole', { path: { roleId: 'theirs' }, body: { label: 'Theirs' } }));
      expectError(await disableRole(org, 'theirs'), 404, 'role_not_found');
      expectError(await disableRole(org, 'nobody'), 404, 'role_not_found');
      expect((await roleRow(other, 'theirs'))?.disabledAt).toBeNull();
      for (const body of [{}, { disabled: 'yes' }, { disabled: true, label: 'x' }]) {
        expectError(await org.api('owner', 'PATCH', '/agent-roles/coder', body), 400, 'validation_failed');
      }
    },
  );

  it(
    'is refused by the runtime resolver while disabled; ' + 'enabled, it resolves with its enabled skills only',
    async () => {
      const { agentRoles } = hub.services;
      await okBody(org.call('owner', 'putAgentRole', { path: { roleId: 'runner' }, body: { label: 'Runner' } }));
      for (const name of ['on', 'off']) {
        await okBody(
          org.call('owner', 'installAgentSkill', {
            path: { name },
            body: { version: '1', files: [{ path: 'SKILL.md', content: `---\nname: ${name}\n---\n` }] },
          }),
        );
      }
      await okBody(
        org.call('owner', 'putAgentRoleSkills', { path: { roleId: 'runner' }, body: { skillNames: ['on', 'off'] } }),
      );
      await okBody(org.call('owner', 'updateAgentSkill', { path: { name: 'off' }, body: { disabled: true } }));
      const resolved = await agentRoles.resolveSessionRole(org.id, 'runner');
      expect(resolved.role.role_id).toBe('runner');
      expect(resolved.skillNames).toEqual(['on']);

      await okBody(disableRole(org, 'runner'));
      await expect(agentRoles.resolveSessionRole(org.id, 'runner')).rejects.toBeInstanceOf(RoleUnavailableError);
      await expect(agentRoles.resolveSessionRole(org.id, 'runner')).rejects.toMatchObject({
        reason: 'disabled',
        code: 'role_unavailable',
      });
      await expect(agentRoles.resolveSessionRole(org.id, 'missing')).rejects.toMatchObject({ reason: 'not_found' });
      await okBody(disableRole(org, 'runner', false));
      expect((await agentRoles.resolveSessionRole(org.id, 'runner')).role.disabled_at).toBeNull();
    },
  );
});

describe('disableProviderConnection', () => {
  const byok = { baseUrl: 'https://api.example.com', authToken: 'sk-byok' };

  it(
    'sets a BYOK connection DISABLED, keeps its versions, and ' +
      'the resolver refuses it until a PUT makes it ACTIVE again',
    async () => {
      const org = await freshOrg();
      const created = await okBody(
        org.call('owner', 'rotateProviderConnection', { path: { providerId: 'anthropic' }, body: byok }),
      );
      tick();
      const disabled = await okBody(
        org.call('admin', 'disableProviderConnection', { path: { providerId: 'anthropic' } }),
      );
      expect(disabled).toEqual({ ...created, status: 'DISABLED', updatedAt: hub.clock.now().toISOString() });
      await expect(hub.services.credentials.resolveProviderCredentials(org.id, 'anthropic')).rejects.toBeInstanceOf(
        ConnectionUnavailableError,
      );
      await expect(hub.services.credentials.resolveProviderCredentials(org.id, 'anthropic')).rejects.toMatchObject({
        reason: 'disabled',
      });
      expect((await okBody(org.call('owner', 'listProviderConnections'))).connections).toEqual([disabled]);

      // Again: nothing changes, not even updatedAt.
      tick();
      expect(
        await okBody(org.call('owner', 'disableProviderConnection', { path: { providerId: 'anthropic' } })),
      ).toEqual(disabled);

      const back = await okBody(
        org.call('owner', 'rotateProviderConnection', {
          path: { providerId: 'anthropic' },
          body: { ...byok, authToken: 'sk-new' },
        }),
      );
      expect(back).toMatchObject({ status: 'ACTIVE', activeVersion: 2, mode: 'BYOK' });
      expect((await hub.services.credentials.resolveProviderCredentials(org.id, 'anthropic')).authToken).toBe('sk-new');
    },
  );

  it('refuses a PLATFORM_MANAGED connection with 403 platform_managed_connection and leaves it ACTIVE', async () => {
    const org = await freshOrg();
    await hub.services.connections.rotateProvider(
      org.id,
      'openai',
      { baseUrl: 'https://api.openai.com', authToken: 'sk-platform' },
      'platform',
    );
    expectError(
      await org.call('owner', 'disableProviderConnection', { path: { providerId: 'openai' } }),
      403,
      'platform_managed_connection',
    );
    const [row] = (await okBody(org.call('owner', 'listProviderConnections'))).connections;
    expect(row).toMatchObject({ providerId: 'openai', mode: 'PLATFORM_MANAGED', status: 'ACTIVE' });
    expect((await hub.services.credentials.resolveProviderCredentials(org.id, 'openai')).authToken).toBe('sk-platform');
  });

  it(
    'answers 404 connection_not_found for a provider without a connection, ' + 'or one of another organization',
    async () => {
      const [org, other] = [await freshOrg(), await freshOrg()];
      await okBody(other.call('owner', 'rotateProviderConnection', { path: { providerId: 'anthropic' }, body: byok }));
      expectError(
        await org.call('owner', 'disableProviderConnection', { path: { providerId: 'anthropic' } }),
        404,
        'connection_not_found',
      );
      expect((await okBody(other.call('owner', 'listProviderConnections'))).connections[0]?.status).toBe('ACTIVE');
    },
  );
});
