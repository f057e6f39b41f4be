import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODELS } from '../../src/config/models.js';
import { loadConfig } from '../../src/config/config.js';
import { configError, errorBody, expectError, expectOk } from '../support/assertions.js';
import { expectSettingRefused } from '../support/hub-cli.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import type { RequestBody, Schema } from '../support/api-client.js';
import { TestHub } from '../support/test-hub.js';

/** The picker of the second hub, given the way an operator gives it. */
const CUSTOM_MODELS = [
  { id: 'house-large', label: 'House model, large', toolCapable: true },
  { id: 'house-small', label: 'House model, small', toolCapable: false },
];

let hub: TestHub;
let customHub: TestHub;
let slugCounter = 0;
const freshOrg = (prefix: string, on: TestHub = hub) => seedOrg(on, `${prefix}-${++slugCounter}`);

beforeAll(async () => {
  [hub, customHub] = await Promise.all([
    TestHub.start(),
    TestHub.start({ config: { models: loadConfig({ HUB_MODELS: JSON.stringify(CUSTOM_MODELS) }).models } }),
  ]);
});
afterAll(() => Promise.all([hub?.stop(), customHub?.stop()]));

const now = () => hub.clock.now().toISOString();
/** Moves the clock on, so the next write gets a timestamp of its own. */
const tick = () => hub.clock.advance(60_000);

type RoleRow = Schema<'AgentRoleRow'>;

const roleUrl = (roleId: string) => `/agent-roles/${encodeURIComponent(roleId)}`;

async function putRole(org: OrgFixture, roleId: string, body: RequestBody<'putAgentRole'>): Promise<RoleRow> {
  const res = await org.call('owner', 'putAgentRole', { path: { roleId }, body });
  expectOk(res);
  return res.body;
}

async function listRoles(org: OrgFixture): Promise<RoleRow[]> {
  const res = await org.call('owner', 'listAgentRoles');
  expectOk(res);
  expect(res.body.nextCursor).toBeNull(); // the whole list, without limit
  return res.body.roles;
}

const putSkills = (org: OrgFixture, roleId: string, skillNames: string[]) =>
  org.call('owner', 'putAgentRoleSkills', { path: { roleId }, body: { skillNames } });

async function bindSkills(org: OrgFixture, roleId: string, skillNames: string[]): Promise<string[]> {
  const res = await putSkills(org, roleId, skillNames);
  expectOk(res);
  expect(Object.keys(res.body)).toEqual(['skillNames']);
  return res.body.skillNames;
}

/**
 * A skill row written straight into the table: the skill endpoints are another area's, and a
 * role only needs the row. The digest names no store entry.
 */
async function insertSkill(
  on: TestHub,
  organizationId: string,
  name: string,
  disabledAt: string | null = null,
): Promise<string> {
  const id = randomUUID();
  const at = on.clock.now().toISOString();
  await on.database.db('agent_skills').insert({
    id,
    organization_id: organizationId,
    name,
    version: '1.0.0',
    description: null,
    content_digest: 'ab'.repeat(32),
    disabled_at: disabledAt,
    created_at: at,
    updated_at: at,
  });
  return id;
}

const defaults = (org: OrgFixture) =>
  listRoles(org).then((roles) => roles.filter((r) => r.isDefault).map((r) => r.roleId));

describe('the model picker (GET /agent-models)', () => {
  it('lists the built-in models when HUB_MODELS is unset', async () => {
    const res = await (await freshOrg('models')).call('admin', 'listAgentModels');
    expectOk(res);
    expect(res.body).toEqual({
      models: [
        { id: 'claude-sonnet-4-5', label: 'Claude Sonnet 4.5', toolCapable: true },
        { id: 'claude-opus-4-1', label: 'Claude Opus 4.1', toolCapable: true },
        { id: 'claude-haiku-4-5', label: 'Claude Haiku 4.5', toolCapable: true },
        { id: 'gpt-5', label: 'GPT-5', toolCapable: true },
        { id: 'gpt-5-mini', label: 'GPT-5 mini', toolCapable: true },
      ],
    });
    expect(res.body.models).toEqual(DEFAULT_MODELS);
  });

  it('lists exactly the HUB_MODELS rows, in their order', async () => {
    const res = await (await freshOrg('custom', customHub)).call('owner', 'listAgentModels');
    expectOk(res);
    expect(res.body).toEqual({ models: CUSTOM_MODELS });
  });

  it('backs the unknown_model check with the same list', async () => {
    const org = await freshOrg('custom-check', customHub);
    const chosen = await org.call('owner', 'putAgentRole', {
      path: { roleId: 'writer' },
      body: { label: 'Writer', defaultModel: 'house-small' },
    });
    expectOk(chosen);
    expect(chosen.body.defaultModel).toBe('house-small');
    // A built-in id is unknown once HUB_MODELS replaces the list.
    expectError(
      await org.call('owner', 'putAgentRole', {
        path: { roleId: 'writer' },
        body: { label: 'Writer', defaultModel: 'claude-sonnet-4-5' },
      }),
      422,
      'unknown_model',
    );
  });

  it('reads HUB_MODELS at start-up; unset or blank means the built-in list', () => {
    expect(loadConfig({}).models).toEqual(DEFAULT_MODELS);
    expect(loadConfig({ HUB_MODELS: '  ' }).models).toEqual(DEFAULT_MODELS);
    expect(loadConfig({ HUB_MODELS: JSON.stringify(CUSTOM_MODELS) }).models).toEqual(CUSTOM_MODELS);
  });

  it('stops start-up on a malformed HUB_MODELS with one line naming the variable', () => {
    const cases: Array<[string, RegExp]> = [
      ['not json', /not valid JSON/],
      ['{"id": "a", "label": "A", "toolCapable": true}', /must be a JSON array/],
      ['[]', /at least one model/],
      ['[1]', /HUB_MODELS\[0\] must be an object/],
      ['[null]', /HUB_MODELS\[0\] must be an object/],
      ['[{"label": "A", "toolCapable": true}]', /HUB_MODELS\[0\]\.id/],
      ['[{"id": "", "label": "A", "toolCapable": true}]', /HUB_MODELS\[0\]\.id/],
      ['[{"id": " a", "label": "A", "toolCapable": true}]', /HUB_MODELS\[0\]\.id/],
      [`[{"id": "${'m'.repeat(201)}", "label": "A", "toolCapable": true}]`, /HUB_MODELS\[0\]\.id/],
      ['[{"id": "a", "label": " ", "toolCapable": true}]', /HUB_MODELS\[0\]\.label/],
      ['[{"id": "a", "label": "A"}]', /HUB_MODELS\[0\]\.toolCapable/],
      ['[{"id": "a", "label": "A", "toolCapable": "yes"}]', /HUB_MODELS\[0\]\.toolCapable/],
      [
        '[{"id": "a", "label": "A", "toolCapable": true, "vendor": "x"}]',
        /HUB_MODELS\[0\] has unknown properties "vendor"/,
      ],
      [
        '[{"id": "a", "label": "A", "toolCapable": true}, {"id": "a", "label": "B", "toolCapable": false}]',
        /HUB_MODELS\[1\]\.id repeats the model id "a"/,
      ],
    ];
    for (const [value, message] of cases) {
      const err = configError({ HUB_MODELS: value });
      expect(err.message, value).toMatch(/^HUB_MODELS/);
      expect(err.message, value).toMatch(message);
      expect(err.message, value).not.toContain('\n');
    }
  });

  it('makes a hub command exit 2 with one line naming HUB_MODELS, before touching the database', async () => {
    await expectSettingRefused({ HUB_MODELS: '[{"id": "a"}]' }, 'HUB_MODELS');
  });
});

describe('PUT /agent-roles/{roleId}', () => {
  it(
    'creates a role from a label alone, ' + 'every other field at its default, and answers 200 with the full row',
    async () => {
      const org = await freshOrg('create');
      const res = await org.call('admin', 'putAgentRole', {
        path: { roleId: 'reviewer' },
        body: { label: 'Reviewer' },
      });
      expectOk(res);
      expect(res.body).toEqual({
        id: expect.any(String),
        roleId: 'reviewer',
        label: 'Reviewer',
        defaultModel: null,
        systemPrompt: null,
        tools: null,
        sortOrder: 0,
        isDefault: false,
        disabledAt: null,
        libraryFolderId: null,
        createdAt: now(),
        updatedAt: now(),
        skillNames: [],
      });
      expect(await listRoles(org)).toEqual([res.body]);
    },
  );

  it('creates a role with every field given', async () => {
    const org = await freshOrg('create-full');
    const body = {
      label: 'Release manager',
      defaultModel: 'claude-opus-4-1',
      systemPrompt: 'You ship releases.\nCarefully.',
      tools: ['bash', 'read_file'],
      sortOrder: -5,
      isDefault: true,
    };
    const role = await putRole(org, 'Release.mgr_2-x', body);
    expect(role).toEqual({
      id: expect.any(String),
      roleId: 'Release.mgr_2-x',
      ...body,
      disabledAt: null,
      libraryFolderId: null,
      createdAt: now(),
      updatedAt: now(),
      skillNames: [],
    });
    expect(await listRoles(org)).toEqual([role]);
  });

  it(
    'replaces the whole definition: ' + 'fields left out return to their defaults; id, createdAt and skills stay',
    async () => {
      const org = await freshOrg('replace');
      await insertSkill(hub, org.id, 'lint');
      const createdAt = now();
      const first = await putRole(org, 'coder', {
        label: 'Coder',
        defaultModel: 'gpt-5',
        systemPrompt: 'Write code.',
        tools: ['bash'],
        sortOrder: 3,
        isDefault: true,
      });
      expect(await bindSkills(org, 'coder', ['lint'])).toEqual(['lint']);
      tick();
      const replaced = await putRole(org, 'coder', { label: 'Coder v2' });
      expect(replaced).toEqual({
        id: first.id,
        roleId: 'coder',
        label: 'Coder v2',
        defaultModel: null,
        systemPrompt: null,
        tools: null,
        sortOrder: 0,
        isDefault: false,
        disabledAt: null,
        libraryFolderId: null,
        createdAt,
        updatedAt: now(),
        skillNames: ['lint'],
      });
      expect(await listRoles(org)).toEqual([replaced]);
    },
  );

  it('keeps an explicit null and an empty tool list apart: null is the runtime defaults, [] is no tools', async () => {
    const org = await freshOrg('tools');
    expect((await putRole(org, 'none', { label: 'No tools', tools: [] })).tools).toEqual([]);
    expect(
      (await putRole(org, 'defaults', { label: 'Defaults', tools: null, defaultModel: null, systemPrompt: null }))
        .tools,
    ).toBeNull();
    const listed = Object.fromEntries((await listRoles(org)).map((r) => [r.roleId, r.tools]));
    expect(listed).toEqual({ none: [], defaults: null });
  });

  it('keeps each tool once, where it first appears', async () => {
    const org = await freshOrg('tools-dup');
    expect((await putRole(org, 'r', { label: 'R', tools: ['write', 'read', 'write', 'bash', 'read'] })).tools).toEqual([
      'write',
      'read',
      'bash',
    ]);
  });

  it('trims the label, and refuses a blank one with 400 validation_failed', async () => {
    const org = await freshOrg('label');
    expect((await putRole(org, 'r', { label: '  Planner  ' })).label).toBe('Planner');
    for (const label of ['', '   ']) {
      const res = await org.call('owner', 'putAgentRole', { path: { roleId: 'blank' }, body: { label } });
      expectError(res, 400, 'validation_failed');
      expect(errorBody(res).error.details).toEqual([expect.objectContaining({ path: '/body/label' })]);
    }
    expect((await listRoles(org)).map((r) => r.roleId)).toEqual(['r']);
  });

  it('refuses a roleId outside ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ with 400 validation_failed', async () => {
    const org = await freshOrg('role-id');
    for (const roleId of ['-lead', '.hidden', '_x', 'has space', 'a'.repeat(65), 'ünïcode', 'semi;colon']) {
      expectError(
        await org.call('owner', 'putAgentRole', { path: { roleId: roleId }, body: { label: 'X' } }),
        400,
        'validation_failed',
      );
      expectError(await putSkills(org, roleId, []), 400, 'validation_failed');
    }
    const longest = `A${'b'.repeat(63)}`;
    expect((await putRole(org, longest, { label: 'Longest' })).roleId).toBe(longest);
    expect((await listRoles(org)).map((r) => r.roleId)).toEqual([longest]);
  });

  it('treats roleId as case-sensitive: Lead and lead are two roles', async () => {
    const org = await freshOrg('case');
    const upper = await putRole(org, 'Lead', { label: 'Upper' });
    const lower = await putRole(org, 'lead', { label: 'Lower' });
    expect(upper.id).not.toBe(lower.id);
    expect((await listRoles(org)).map((r) => [r.roleId, r.label])).toEqual([
      ['lead', 'Lower'],
      ['Lead', 'Upper'],
    ]);
  });

  it('refuses bodies the contract does not allow with 400 validation_failed, writing nothing', async () => {
    const org = await freshOrg('body');
    const bodies: unknown[] = [
      {},
      { label: null },
      { label: 'x'.repeat(201) },
      { label: 'X', tools: Array.from({ length: 101 }, (_, i) => `tool-${i}`) },
      { label: 'X', tools: [''] },
      { label: 'X', tools: 'bash' },
      { label: 'X', sortOrder: 1.5 },
      { label: 'X', isDefault: 'yes' },
      { label: 'X', defaultModel: '' },
      { label: 'X', systemPrompt: 'p'.repeat(100_001) },
      { label: 'X', extra: true },
    ];
    for (const body of bodies) expectError(await org.api('owner', 'PUT', roleUrl('r'), body), 400, 'validation_failed');
    expect(await listRoles(org)).toEqual([]);
  });

  it('accepts 100 tools and sortOrder across the 32-bit range, and refuses one beyond it', async () => {
    const org = await freshOrg('bounds');
    const tools = Array.from({ length: 100 }, (_, i) => `tool-${i}`);
    expect((await putRole(org, 'many', { label: 'Many', tools })).tools).toEqual(tools);
    expect((await putRole(org, 'low', { label: 'Low', sortOrder: -2147483648 })).sortOrder).toBe(-2147483648);
    expect((await putRole(org, 'high', { label: 'High', sortOrder: 2147483647 })).sortOrder).toBe(2147483647);
    for (const sortOrder of [2147483648, -2147483649, 1e20]) {
      const res = await org.call('owner', 'putAgentRole', {
        path: { roleId: 'beyond' },
        body: { label: 'Beyond', sortOrder },
      });
      expectError(res, 400, 'validation_failed');
      expect(errorBody(res).error.details).toEqual([expect.objectContaining({ path: '/body/sortOrder' })]);
    }
    expect((await listRoles(org)).map((r) => r.roleId)).toEqual(['low', 'many', 'high']);
  });

  it('refuses a defaultModel that is no /agent-models id with 422 unknown_model, changing nothing', async () => {
    const org = await freshOrg('model');
    const before = await putRole(org, 'r', { label: 'R', defaultModel: 'gpt-5', isDefault: true });
    await putRole(org, 'other', { label: 'Other' });
    tick();
    for (const defaultModel of ['gpt-4', 'GPT-5', 'claude-sonnet-4-5 ']) {
      const res = await org.call('owner', 'putAgentRole', {
        path: { roleId: 'r' },
        body: { label: 'Changed', defaultModel },
      });
      expectError(res, 422, 'unknown_model');
      expect(errorBody(res).error.message).toContain(defaultModel);
      // Neither a replacement nor a default switch may happen.
      expectError(
        await org.call('owner', 'putAgentRole', {
          path: { roleId: 'other' },
          body: { label: 'Other', defaultModel, isDefault: true },
        }),
        422,
        'unknown_model',
      );
      expectError(
        await org.call('owner', 'putAgentRole', { path: { roleId: 'new' }, body: { label: 'New', defaultModel } }),
        422,
        'unknown_model',
      );
    }
    const roles = await listRoles(org);
    expect(roles.map((r) => r.roleId)).toEqual(['other', 'r']);
    expect(roles.find((r) => r.roleId === 'r')).toEqual(before);
  });

  it('accepts every /agent-models id as defaultModel', async () => {
    const org = await freshOrg('every-model');
    for (const model of DEFAULT_MODELS)
      expect((await putRole(org, 'r', { label: 'R', defaultModel: model.id })).defaultModel).toBe(model.id);
  });
});

describe('the default role', () => {
  it('moves to the role that sets isDefault; the previous default is cleared and marked as changed', async () => {
    const org = await freshOrg('default');
    const a = await putRole(org, 'a', { label: 'A', isDefault: true });
    const b = await putRole(org, 'b', { label: 'B' });
    tick();
    const madeDefault = await putRole(org, 'b', { label: 'B', isDefault: true });
    expect(madeDefault.isDefault).toBe(true);
    const roles = await listRoles(org);
    expect(roles).toEqual([
      { ...a, isDefault: false, updatedAt: now() },
      { ...b, isDefault: true, updatedAt: now() },
    ]);
  });

  it(
    'stays on a default role that PUT keeps default, and leaves ' +
      'the organization without one when a PUT omits isDefault',
    async () => {
      const org = await freshOrg('default-keep');
      await putRole(org, 'a', { label: 'A', isDefault: true });
      await putRole(org, 'b', { label: 'B' });
      await putRole(org, 'a', { label: 'A again', isDefault: true });
      expect(await defaults(org)).toEqual(['a']);
      await putRole(org, 'a', { label: 'A' });
      expect(await defaults(org)).toEqual([]);
    },
  );

  it('is created default at once when a new role sets isDefault', async () => {
    const org = await freshOrg('default-new');
    await putRole(org, 'a', { label: 'A', isDefault: true });
    expect((await putRole(org, 'fresh', { label: 'Fresh', isDefault: true })).isDefault).toBe(true);
    expect(await defaults(org)).toEqual(['fresh']);
  });

  it('ends with exactly one default when concurrent PUTs make different roles the default, never a 500', async () => {
    const org = await freshOrg('default-race');
    const roleIds = Array.from({ length: 8 }, (_, i) => `r${i}`);
    for (const roleId of roleIds) await putRole(org, roleId, { label: roleId.toUpperCase() });
    for (let round = 0; round < 5; round++) {
      const results = await Promise.all(
        roleIds.map((roleId) =>
          org.call('owner', 'putAgentRole', {
            path: { roleId: roleId },
            body: { label: roleId.toUpperCase(), isDefault: true },
          }),
        ),
      );
      for (const res of results) {
        expectOk(res);
        expect(res.body.isDefault).toBe(true);
      }
      const chosen = await defaults(org);
      expect(chosen, `round ${round}`).toHaveLength(1);
      expect(roleIds).toContain(chosen[0]);
    }
  });

  it('ends with exactly one default when concurrent PUTs create new default roles', async () => {
    const org = await freshOrg('default-race-new');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        org.call('owner', 'putAgentRole', {
          path: { roleId: `new-${i}` },
          body: { label: `New ${i}`, isDefault: true },
        }),
      ),
    );
    for (const res of results) expectOk(res);
    expect(await listRoles(org)).toHaveLength(8);
    expect(await defaults(org)).toHaveLength(1);
  });

  it('creates one role when concurrent PUTs create the same roleId', async () => {
    const org = await freshOrg('same-race');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        org.call('owner', 'putAgentRole', { path: { roleId: 'twin' }, body: { label: `Twin ${i}`, sortOrder: i } }),
      ),
    );
    for (const res of results) expectOk(res);
    const roles = await listRoles(org);
    expect(roles).toHaveLength(1);
    const ids = results.map((r) => {
      expectOk(r);
      return r.body.id;
    });
    expect(new Set(ids)).toEqual(new Set([roles[0]!.id]));
  });

  it('is per organization: another organization’s default is untouched', async () => {
    const [one, two] = [await freshOrg('default-one'), await freshOrg('default-two')];
    await putRole(one, 'lead', { label: 'Lead', isDefault: true });
    await putRole(two, 'lead', { label: 'Lead', isDefault: true });
    await putRole(two, 'other', { label: 'Other', isDefault: true });
    expect(await defaults(one)).toEqual(['lead']);
    expect(await defaults(two)).toEqual(['other']);
  });
});

describe('PUT /agent-roles/{roleId}/skills', () => {
  it('binds existing skills and answers their names sorted and without repeats; the role row shows them', async () => {
    const org = await freshOrg('skills');
    for (const name of ['review', 'lint', 'deploy-2']) await insertSkill(hub, org.id, name);
    const role = await putRole(org, 'coder', { label: 'Coder' });
    tick();
    expect(await bindSkills(org, 'coder', ['review', 'lint', 'review', 'deploy-2'])).toEqual([
      'deploy-2',
      'lint',
      'review',
    ]);
    expect(await listRoles(org)).toEqual([{ ...role, skillNames: ['deploy-2', 'lint', 'review'], updatedAt: now() }]);
  });

  it('replaces the whole set: names left out are unbound, an empty list unbinds all', async () => {
    const org = await freshOrg('skills-replace');
    for (const name of ['a', 'b', 'c']) await insertSkill(hub, org.id, name);
    await putRole(org, 'r', { label: 'R' });
    await bindSkills(org, 'r', ['a', 'b']);
    expect(await bindSkills(org, 'r', ['b', 'c'])).toEqual(['b', 'c']);
    expect((await listRoles(org))[0]!.skillNames).toEqual(['b', 'c']);
    expect(await bindSkills(org, 'r', [])).toEqual([]);
    expect((await listRoles(org))[0]!.skillNames).toEqual([]);
  });

  it('keeps the original binding of a skill that stays bound', async () => {
    const org = await freshOrg('skills-keep');
    const skillId = await insertSkill(hub, org.id, 'keep');
    await insertSkill(hub, org.id, 'add');
    const role = await putRole(org, 'r', { label: 'R' });
    await bindSkills(org, 'r', ['keep']);
    const boundAt = now();
    tick();
    await bindSkills(org, 'r', ['keep', 'add']);
    const row = await hub.database
      .db('agent_role_skills')
      .where({ role_id: role.id, skill_id: skillId })
      .first('created_at');
    expect(row.created_at).toBe(boundAt);
  });

  it(
    'refuses names that are no skill of the organization with 422 unknown_skill naming each, ' + 'changing nothing',
    async () => {
      const org = await freshOrg('skills-unknown');
      const elsewhere = await freshOrg('skills-elsewhere');
      await insertSkill(hub, org.id, 'known');
      await insertSkill(hub, elsewhere.id, 'theirs');
      const role = await putRole(org, 'r', { label: 'R' });
      await bindSkills(org, 'r', ['known']);
      tick();
      const res = await putSkills(org, 'r', ['known', 'missing-b', 'theirs', 'missing-a']);
      expectError(res, 422, 'unknown_skill');
      for (const name of ['missing-a', 'missing-b', 'theirs'])
        expect(errorBody(res).error.message).toContain(`"${name}"`);
      expect(errorBody(res).error.message).not.toContain('"known"');
      expect(await listRoles(org)).toEqual([{ ...role, skillNames: ['known'] }]);
    },
  );

  it('lets a disabled skill be bound and stay bound', async () => {
    const org = await freshOrg('skills-disabled');
    await insertSkill(hub, org.id, 'retired', now());
    await insertSkill(hub, org.id, 'active');
    await putRole(org, 'r', { label: 'R' });
    expect(await bindSkills(org, 'r', ['retired', 'active'])).toEqual(['active', 'retired']);
    expect(await bindSkills(org, 'r', ['retired'])).toEqual(['retired']);
  });

  it(
    'answers 404 role_not_found for a role the organization does not have, ' + 'including another organization’s',
    async () => {
      const org = await freshOrg('skills-norole');
      const other = await freshOrg('skills-otherrole');
      await insertSkill(hub, org.id, 's');
      await putRole(other, 'theirs', { label: 'Theirs' });
      for (const roleId of ['nobody', 'theirs'])
        expectError(await putSkills(org, roleId, ['s']), 404, 'role_not_found');
      // The role is checked first, so an unknown role with unknown skills is still role_not_found.
      expectError(await putSkills(org, 'nobody', ['nothing']), 404, 'role_not_found');
      expect((await listRoles(other))[0]!.skillNames).toEqual([]);
    },
  );

  it('refuses a body the contract does not allow with 400 validation_failed', async () => {
    const org = await freshOrg('skills-body');
    await putRole(org, 'r', { label: 'R' });
    const tooMany = Array.from({ length: 201 }, (_, i) => `s-${i}`);
    for (const body of [
      {},
      { skillNames: 'a' },
      { skillNames: ['Upper'] },
      { skillNames: ['-lead'] },
      { skillNames: [''] },
      { skillNames: tooMany },
      { skillNames: [], extra: 1 },
    ]) {
      expectError(await org.api('owner', 'PUT', `${roleUrl('r')}/skills`, body), 400, 'validation_failed');
    }
  });

  it('ends with one of the requested sets when concurrent PUTs replace one role’s skills, never a 500', async () => {
    const org = await freshOrg('skills-race');
    for (const name of ['a', 'b', 'c', 'd']) await insertSkill(hub, org.id, name);
    await putRole(org, 'r', { label: 'R' });
    const sets = [['a', 'b'], ['b', 'c'], ['c', 'd'], ['a', 'd'], [], ['a', 'b', 'c', 'd']];
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(sets.map((set) => putSkills(org, 'r', set)));
      results.forEach((res, i) => {
        expectOk(res);
        expect(res.body).toEqual({ skillNames: sets[i] });
      });
      expect(sets).toContainEqual((await listRoles(org))[0]!.skillNames);
    }
  });

  it('is not touched by a PUT of the role', async () => {
    const org = await freshOrg('skills-put');
    await insertSkill(hub, org.id, 'kept');
    await putRole(org, 'r', { label: 'R' });
    await bindSkills(org, 'r', ['kept']);
    expect((await putRole(org, 'r', { label: 'Renamed', tools: [] })).skillNames).toEqual(['kept']);
  });
});

describe('GET /agent-roles', () => {
  it('is empty for an organization without roles', async () => {
    const res = await (await freshOrg('empty')).call('owner', 'listAgentRoles');
    expectOk(res);
    expect(res.body).toEqual({ roles: [], nextCursor: null });
  });

  it('orders by sortOrder, then label as people read it, then roleId', async () => {
    const org = await freshOrg('order');
    const puts: Array<[string, string, number]> = [
      ['z', 'beta', 0],
      ['y', 'Alpha', 0],
      ['x', 'alpha', 0],
      ['w', 'alpha', 0],
      ['v', 'Zulu', -1],
      ['u', 'aardvark', 10],
      ['t', 'Émile', 0],
    ];
    for (const [roleId, label, sortOrder] of puts) await putRole(org, roleId, { label, sortOrder });
    expect((await listRoles(org)).map((r) => r.roleId)).toEqual(['v', 'y', 'w', 'x', 'z', 't', 'u']);
  });

  it('lists disabled roles too, with disabledAt', async () => {
    const org = await freshOrg('disabled');
    const role = await putRole(org, 'old', { label: 'Old' });
    const disabledAt = now();
    await hub.database.db('agent_roles').where({ id: role.id }).update({ disabled_at: disabledAt });
    expect(await listRoles(org)).toEqual([{ ...role, disabledAt }]);
    // A replacement keeps the role disabled: no endpoint of this contract enables or disables roles.
    expect((await putRole(org, 'old', { label: 'Older' })).disabledAt).toBe(disabledAt);
  });

  it('reads the roles and the bindings in two queries, however many roles there are', async () => {
    const org = await freshOrg('queries');
    for (const name of ['s1', 's2']) await insertSkill(hub, org.id, name);
    for (let i = 0; i < 12; i++) {
      await putRole(org, `r${i}`, { label: `R${i}` });
      await bindSkills(org, `r${i}`, i % 2 ? ['s1', 's2'] : ['s1']);
    }
    await org.call('owner', 'listAgentRoles'); // warms the session and membership caches
    const agentQueries: string[] = [];
    const listener = (query: { sql: string }) => {
      if (/agent_/.test(query.sql)) agentQueries.push(query.sql);
    };
    hub.database.db.on('query', listener);
    try {
      const roles = await listRoles(org);
      expect(roles).toHaveLength(12);
      expect(roles.find((r) => r.roleId === 'r3')!.skillNames).toEqual(['s1', 's2']);
    } finally {
      hub.database.db.removeListener('query', listener);
    }
    expect(agentQueries).toHaveLength(2);
  });
});

describe('organizations apart', () => {
  it('keeps organizations apart: one never sees or changes the other’s roles', async () => {
    const [one, two] = [await freshOrg('iso-one'), await freshOrg('iso-two')];
    await insertSkill(hub, one.id, 'mine');
    const oneRole = await putRole(one, 'lead', { label: 'One lead', isDefault: true });
    await bindSkills(one, 'lead', ['mine']);
    const twoRole = await putRole(two, 'lead', { label: 'Two lead', defaultModel: 'gpt-5' });
    expect(twoRole.id).not.toBe(oneRole.id);
    expect(twoRole.skillNames).toEqual([]);
    expectError(await putSkills(two, 'lead', ['mine']), 422, 'unknown_skill');
    expect(await listRoles(one)).toEqual([{ ...oneRole, skillNames: ['mine'] }]);
    expect(await listRoles(two)).toEqual([twoRole]);
  });
});
