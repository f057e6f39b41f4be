import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPACITY_DIMENSIONS, ceilingVariable, type CapacityDimension } from '../../src/capacity/dimensions.js';
import { BUILT_IN_CEILINGS, SKILL_INGESTION_DEFAULTS } from '../../src/capacity/ceilings.js';
import { effectiveOf } from '../../src/capacity/projection.js';
import { loadConfig } from '../../src/config/config.js';
import { loadOpenApiDocument } from '../../src/http/openapi-document.js';
import { configError, errorBody, expectError, expectOk, okBody } from '../support/assertions.js';
import { cliEnv, expectSettingRefused, runHub } from '../support/hub-cli.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import type { ApiResult, ErrorEnvelope, RequestBody, Schema } from '../support/api-client.js';
import { TestHub, type HttpResult } from '../support/test-hub.js';
import { runLine, writeJsonl } from '../support/usage-runs.js';

/** The ceilings of the main hub, given the way an operator gives them. */
const CEILING_ENV = {
  HUB_CEILING_MEMBER_COUNT: '500',
  HUB_CEILING_TEAM_COUNT: '100',
  HUB_CEILING_FOLDER_COUNT: '100',
  HUB_CEILING_PROJECT_COUNT: '100',
  HUB_CEILING_REQUEST_RATE: '10000',
  HUB_CEILING_FILE_SIZE: '1048576',
  HUB_CEILING_RUN_WALL_TIME: '3600',
};
const DEFAULT_BODY_LIMIT = loadConfig({}).bodyLimitBytes;

let hub: TestHub;
let plainHub: TestHub;
let slugCounter = 0;
const freshOrg = (prefix: string) => seedOrg(hub, `${prefix}-${++slugCounter}`);
let scratch: string | undefined;
const tmpDir = () => {
  scratch ??= fs.mkdtempSync(path.join(os.tmpdir(), 'capacity-'));
  return scratch;
};
afterAll(() => scratch && fs.rmSync(scratch, { recursive: true, force: true }));

beforeAll(async () => {
  [hub, plainHub] = await Promise.all([
    TestHub.start({ config: { ceilings: loadConfig(CEILING_ENV).ceilings } }),
    TestHub.start(),
  ]);
});
afterAll(() => Promise.all([hub?.stop(), plainHub?.stop()]));

type Row = Schema<'CapacityDimensionRow'>;

/** The dimensions whose `inUse` this service counts; the agent runtime measures the rest. */
const COUNTED_BY_THE_SERVICE: CapacityDimension[] = [
  'memberCount',
  'projectCount',
  'teamCount',
  'folderCount',
  'sessionCount',
];

function rowsOf(res: ApiResult<'getCapacityPolicy' | 'updateCapacityPolicy'>): Record<CapacityDimension, Row> {
  expectOk(res);
  return Object.fromEntries(res.body.dimensions.map((row) => [row.dimension, row])) as Record<CapacityDimension, Row>;
}

const policy = async (org: OrgFixture) => rowsOf(await org.call('owner', 'getCapacityPolicy'));
const putLimits = (org: OrgFixture, limits: RequestBody<'updateCapacityPolicy'>['limits']) =>
  org.call('owner', 'updateCapacityPolicy', { body: { limits } });

async function setLimits(org: OrgFixture, limits: Partial<Record<CapacityDimension, number | null>>) {
  return rowsOf(await putLimits(org, limits));
}

describe('dimensions and platform ceilings', () => {
  it('lists the contract’s 23 dimensions in its order', () => {
    const schemas = (loadOpenApiDocument().components as { schemas: Record<string, { enum: string[] }> }).schemas;
    expect([...CAPACITY_DIMENSIONS]).toEqual(schemas.CapacityDimension!.enum);
    expect(CAPACITY_DIMENSIONS).toHaveLength(23);
  });

  it('names each ceiling variable HUB_CEILING_ plus the dimension in SCREAMING_SNAKE_CASE', () => {
    expect(ceilingVariable('memberCount')).toBe('HUB_CEILING_MEMBER_COUNT');
    expect(ceilingVariable('requestBodySize')).toBe('HUB_CEILING_REQUEST_BODY_SIZE');
    expect(ceilingVariable('processCpu')).toBe('HUB_CEILING_PROCESS_CPU');
  });

  it('reads positive numbers from HUB_CEILING_<DIMENSION>; an empty value is unset', () => {
    expect(loadConfig({}).ceilings).toEqual({});
    expect(
      loadConfig({
        HUB_CEILING_MEMBER_COUNT: '500',
        HUB_CEILING_REQUEST_RATE: '0.5',
        HUB_CEILING_PROCESS_CPU: ' 30 ',
        HUB_CEILING_TEAM_COUNT: '',
      }).ceilings,
    ).toEqual({ memberCount: 500, requestRate: 0.5, processCpu: 30 });
  });

  it('stops start-up on a value that is not a positive number, naming the variable', () => {
    for (const value of ['0', '0.0', '-1', 'abc', '1e3', '0x10', '5MB', '1.', '.5', 'Infinity', '1 000', 'unlimited']) {
      const err = configError({ HUB_CEILING_MEMBER_COUNT: value });
      expect(err.message, value).toContain('HUB_CEILING_MEMBER_COUNT');
      expect(err.message).not.toContain('\n');
    }
  });

  it('stops start-up on a variable that names no dimension', () => {
    for (const name of [
      'HUB_CEILING_MEMBERS',
      'HUB_CEILING_memberCount',
      'HUB_CEILING_',
      'HUB_CEILING_MEMBER_COUNTS',
    ]) {
      expect(configError({ [name]: '5' }).message, name).toMatch(new RegExp(`^${name} names no capacity dimension`));
    }
  });

  it('refuses a request body ceiling above HUB_BODY_LIMIT, the largest body the server reads', () => {
    const err = configError({ HUB_BODY_LIMIT: '100000', HUB_CEILING_REQUEST_BODY_SIZE: '100001' });
    expect(err.message).toContain('HUB_CEILING_REQUEST_BODY_SIZE');
    expect(err.message).toContain('HUB_BODY_LIMIT');
    expect(configError({ HUB_CEILING_REQUEST_BODY_SIZE: String(DEFAULT_BODY_LIMIT + 1) }).message).toContain(
      'HUB_BODY_LIMIT',
    );
    expect(loadConfig({ HUB_BODY_LIMIT: '100000', HUB_CEILING_REQUEST_BODY_SIZE: '100000' }).ceilings).toEqual({
      requestBodySize: 100000,
    });
  });

  it('makes every hub command exit 2 with one line naming the variable, before touching the database', async () => {
    await expectSettingRefused({ HUB_CEILING_TEAM_COUNT: 'lots' }, 'HUB_CEILING_TEAM_COUNT');
  });

  it('has a built-in ceiling for every dimension, as docs/administering.md lists them', () => {
    const MIB = 1024 * 1024;
    const GIB = 1024 * MIB;
    expect(BUILT_IN_CEILINGS).toEqual({
      requestRate: 600,
      requestBodySize: 8 * MIB,
      agentConcurrency: 8,
      admissionQueueLength: 100,
      admissionQueueWait: 300,
      fileSize: 5 * MIB,
      attachmentCount: 1000,
      archiveExpansion: 50 * MIB,
      projectStorage: 10 * GIB,
      organizationStorage: 100 * GIB,
      memberCount: 10_000,
      projectCount: 100_000,
      teamCount: 1_000,
      folderCount: 10_000,
      sessionCount: 1_000_000,
      runWallTime: 3600,
      runTurns: 200,
      runToolCalls: 1000,
      toolWallTime: 600,
      runOutputSize: 10 * MIB,
      processMemory: 4 * GIB,
      processCpu: 2000,
      processCount: 64,
    });
  });

  it('computes the effective limit as the lower of ceiling and organization limit', () => {
    expect(effectiveOf(10, null)).toBe(10);
    expect(effectiveOf(10, 4)).toBe(4);
    expect(effectiveOf(10, 20)).toBe(10);
    expect(effectiveOf(null, null)).toBeNull();
    // A limit set before the operator removed the ceiling still binds the organization.
    expect(effectiveOf(null, 4)).toBe(4);
  });
});

describe('GET /capacity-policy', () => {
  it(
    'lists all 23 dimensions in contract order; without HUB_CEILING_ ' +
      'variables every dimension has its built-in ceiling',
    async () => {
      const org = await seedOrg(plainHub, 'plain');
      const res = await org.call('admin', 'getCapacityPolicy');
      expectOk(res);
      expect(res.body.dimensions.map((r: Row) => r.dimension)).toEqual([...CAPACITY_DIMENSIONS]);
      const defaults: Partial<Record<CapacityDimension, number>> = {
        requestBodySize: DEFAULT_BODY_LIMIT,
        fileSize: 5 * 1024 * 1024,
        attachmentCount: 1000,
        archiveExpansion: 50 * 1024 * 1024,
      };
      expect(SKILL_INGESTION_DEFAULTS).toEqual({
        fileSize: defaults.fileSize,
        attachmentCount: 1000,
        archiveExpansion: defaults.archiveExpansion,
      });
      for (const row of res.body.dimensions as Row[]) {
        const ceiling = defaults[row.dimension] ?? BUILT_IN_CEILINGS[row.dimension];
        expect(row, row.dimension).toEqual({
          dimension: row.dimension,
          platformCeiling: ceiling,
          organizationLimit: null,
          effective: ceiling,
          inUse: COUNTED_BY_THE_SERVICE.includes(row.dimension) ? expect.any(Number) : null,
        });
      }
      expect(res.body.warnings).toEqual([]);
    },
  );

  it('counts what is in use: active members, live projects, teams, folders of both trees, open sessions', async () => {
    const org = await freshOrg('in-use');
    const members = (await okBody(org.call('owner', 'listMembers'))).members.length;
    const live = await okBody(org.call('owner', 'createProject', { body: { name: 'One' } }));
    expectOk(await org.call('owner', 'createProject', { body: { name: 'Two' } }), 201);
    // Two sessions, made as the runtime's runs make them; one of them archived.
    const sessions = ['s-open', 's-archived'].map((id) => `${org.slug}-${id}`);
    const runs = sessions.map((id) => runLine(live.id, id, '2026-01-01T00:00:00Z'));
    await hub.services.usage.ingest(org.id, writeJsonl(tmpDir(), `${org.slug}.jsonl`, runs));
    await hub.services
      .db('agent_sessions')
      .where({ id: sessions[1] })
      .update({ archived_at: '2026-01-02T00:00:00.000Z' });
    const archived = await okBody(org.call('owner', 'createProject', { body: { name: 'Gone' } }));
    expectOk(await org.call('owner', 'archiveProject', { path: { projectId: archived.id } }));
    expectOk(await org.call('owner', 'createTeam', { body: { slug: 'ops', name: 'Ops' } }), 201);
    expectOk(await org.call('owner', 'createFolder', { body: { name: 'Projects folder' } }), 201);
    expectOk(await org.call('owner', 'createAgentLibraryFolder', { body: { name: 'Library folder' } }), 201);
    const rows = await policy(org);
    expect(rows.memberCount.inUse).toBe(members);
    expect(rows.projectCount.inUse).toBe(2);
    expect(rows.teamCount.inUse).toBe(1);
    expect(rows.folderCount.inUse).toBe(2);
    expect(rows.sessionCount.inUse).toBe(1);
    expect(rows.organizationStorage.inUse).toBeNull();
    expect(rows.requestRate.inUse).toBeNull();
  });

  it('shows the ceilings the environment set, over the runtime defaults', async () => {
    const rows = await policy(await freshOrg('env'));
    expect(rows.memberCount).toEqual({
      dimension: 'memberCount',
      platformCeiling: 500,
      organizationLimit: null,
      effective: 500,
      inUse: 3,
    });
    expect(rows.fileSize.platformCeiling).toBe(1048576);
    expect(rows.runWallTime.platformCeiling).toBe(3600);
    expect(rows.attachmentCount.platformCeiling).toBe(1000);
    expect(rows.requestBodySize.platformCeiling).toBe(DEFAULT_BODY_LIMIT);
    expect(rows.agentConcurrency).toEqual({
      dimension: 'agentConcurrency',
      platformCeiling: 8,
      organizationLimit: null,
      effective: 8,
      inUse: null,
    });
  });
});

describe('PUT /capacity-policy', () => {
  it('sets organization limits, answers the whole policy, and effective is the lower of the two', async () => {
    const org = await freshOrg('put');
    const res = await putLimits(org, { memberCount: 40, fileSize: 2048, runWallTime: 3600 });
    const rows = rowsOf(res);
    expectOk(res);
    expect(res.body.dimensions.map((r) => r.dimension)).toEqual([...CAPACITY_DIMENSIONS]);
    expect(rows.memberCount).toEqual({
      dimension: 'memberCount',
      platformCeiling: 500,
      organizationLimit: 40,
      effective: 40,
      inUse: 3,
    });
    expect(rows.fileSize).toEqual({
      dimension: 'fileSize',
      platformCeiling: 1048576,
      organizationLimit: 2048,
      effective: 2048,
      inUse: null,
    });
    expect(rows.runWallTime).toEqual({
      dimension: 'runWallTime',
      platformCeiling: 3600,
      organizationLimit: 3600,
      effective: 3600,
      inUse: null,
    });
    expect(await policy(org)).toEqual(rows);
  });

  it('touches only the dimensions present', async () => {
    const org = await freshOrg('partial');
    await setLimits(org, { memberCount: 40, teamCount: 7 });
    const rows = await setLimits(org, { teamCount: 8 });
    expect(rows.memberCount.organizationLimit).toBe(40);
    expect(rows.teamCount.organizationLimit).toBe(8);
    expect((await setLimits(org, {})).teamCount.organizationLimit).toBe(8);
  });

  it('clears a limit with null, so effective falls back to the ceiling; clearing is always allowed', async () => {
    const org = await freshOrg('clear');
    await setLimits(org, { memberCount: 40, teamCount: 7 });
    const rows = await setLimits(org, { memberCount: null, agentConcurrency: null });
    expect(rows.memberCount).toEqual({
      dimension: 'memberCount',
      platformCeiling: 500,
      organizationLimit: null,
      effective: 500,
      inUse: 3,
    });
    expect(rows.teamCount.organizationLimit).toBe(7);
    expect(rows.agentConcurrency.organizationLimit).toBeNull();
  });

  it('accepts 0, fractions and a limit equal to the ceiling', async () => {
    const org = await freshOrg('bounds');
    const rows = await setLimits(org, { sessionCount: null, teamCount: 0, requestRate: 2.5, memberCount: 500 });
    expect([rows.teamCount.effective, rows.requestRate.effective, rows.memberCount.effective]).toEqual([0, 2.5, 500]);
  });

  it('refuses a limit above the ceiling with 422 capacity_above_ceiling, naming the dimension', async () => {
    const org = await freshOrg('above');
    const res = await putLimits(org, { memberCount: 501 });
    expectError(res, 422, 'capacity_above_ceiling');
    expect(errorBody(res).error.message).toContain('memberCount');
    expect(errorBody(res).error.message).toContain('500');
    expect((await policy(org)).memberCount.organizationLimit).toBeNull();
  });

  it('takes a limit on every dimension, since each has a ceiling (built in when no variable sets one)', async () => {
    const org = await freshOrg('noceiling');
    const rows = await setLimits(org, { agentConcurrency: 4, processCpu: 500 });
    expect(rows.agentConcurrency).toEqual({
      dimension: 'agentConcurrency',
      platformCeiling: 8,
      organizationLimit: 4,
      effective: 4,
      inUse: null,
    });
    expect(rows.processCpu).toEqual({
      dimension: 'processCpu',
      platformCeiling: 2000,
      organizationLimit: 500,
      effective: 500,
      inUse: null,
    });
    expectError(await putLimits(org, { agentConcurrency: 9 }), 422, 'capacity_above_ceiling');
  });

  it('is all-or-nothing: one rejected dimension rejects the request and nothing is written', async () => {
    const org = await freshOrg('atomic');
    await setLimits(org, { teamCount: 7 });
    const before = await policy(org);

    const one = await putLimits(org, { memberCount: 40, teamCount: null, fileSize: 2_000_000 });
    expectError(one, 422, 'capacity_above_ceiling');
    expect(errorBody(one).error.message).toContain('fileSize');
    expect(errorBody(one).error.message).not.toContain('memberCount');

    const both = await putLimits(org, {
      memberCount: 40,
      requestBodySize: 1000,
      sessionCount: 1_000_001,
      folderCount: 101,
    });
    expectError(both, 422, 'capacity_below_floor');
    for (const named of ['requestBodySize', 'sessionCount', 'folderCount'])
      expect(errorBody(both).error.message).toContain(named);

    expect(await policy(org)).toEqual(before);
  });

  it(
    'answers 400 validation_failed to values that are not non-negative numbers or null, ' + 'and to unknown dimensions',
    async () => {
      const org = await freshOrg('invalid');
      const before = await policy(org);
      const invalid = [
        { memberCount: -1 },
        { memberCount: -0.5 },
        { memberCount: '5' },
        { memberCount: true },
        { memberCount: {} },
        { members: 5 },
        { memberCount: 5, bogus: 1 },
      ];
      for (const limits of invalid) {
        expectError(await org.api('owner', 'PUT', '/capacity-policy', { limits }), 400, 'validation_failed');
      }
      expectError(await org.api('owner', 'PUT', '/capacity-policy', {}), 400, 'validation_failed');
      expectError(
        await org.api('owner', 'PUT', '/capacity-policy', { limits: { memberCount: 5 }, extra: 1 }),
        400,
        'validation_failed',
      );
      expect(await policy(org)).toEqual(before);
    },
  );

  it('keeps each organization’s limits to itself', async () => {
    const [a, b] = [await freshOrg('own-a'), await freshOrg('own-b')];
    await setLimits(a, { memberCount: 12 });
    expect((await policy(b)).memberCount.organizationLimit).toBeNull();
  });

  it('serves every dimension through effectiveLimit at once after a change, skill ingestion’s included', async () => {
    const org = await freshOrg('effective');
    const { capacity } = hub.services;
    expect(await capacity.effectiveLimit(org.id, 'fileSize')).toBe(1048576);
    expect(await capacity.effectiveLimit(org.id, 'attachmentCount')).toBe(1000);
    expect(await capacity.effectiveLimit(org.id, 'archiveExpansion')).toBe(50 * 1024 * 1024);
    expect(await capacity.effectiveLimit(org.id, 'agentConcurrency')).toBe(8);
    await setLimits(org, { fileSize: 1000, attachmentCount: 10, runWallTime: 60 });
    expect(await capacity.effectiveLimit(org.id, 'fileSize')).toBe(1000);
    expect(await capacity.effectiveLimit(org.id, 'attachmentCount')).toBe(10);
    expect(await capacity.effectiveLimit(org.id, 'runWallTime')).toBe(60);
    await setLimits(org, { fileSize: null });
    expect(await capacity.effectiveLimit(org.id, 'fileSize')).toBe(1048576);
  });
});

/** A counted dimension; `Created` is the body its create answers with. */
interface CountedKind<Created = unknown> {
  dimension: 'memberCount' | 'teamCount' | 'folderCount' | 'projectCount';
  /** Active rows a seeded organization starts with (its OWNER, ADMIN and MEMBER). */
  initial: number;
  create(org: OrgFixture, n: number): Promise<HttpResult<Created | ErrorEnvelope>>;
  /** Archives or revokes the row a successful create answered with. */
  release(org: OrgFixture, created: Created): Promise<HttpResult>;
  countActive(org: OrgFixture): Promise<number>;
}
/** A kind whose release is typed by what its create answers. */
const counted = <Created>(kind: CountedKind<Created>): CountedKind => kind;

const KINDS: CountedKind[] = [
  counted({
    dimension: 'memberCount',
    initial: 3,
    create: (org, n) => org.call('owner', 'addMember', { body: { imOpenId: `${org.slug}-new-${n}`, role: 'MEMBER' } }),
    release: (org, created) => org.call('owner', 'revokeMember', { path: { userId: created.userId } }),
    countActive: async (org) => (await okBody(org.call('owner', 'listMembers'))).members.length,
  }),
  counted({
    dimension: 'teamCount',
    initial: 0,
    create: (org, n) => org.call('owner', 'createTeam', { body: { slug: `team-${n}`, name: `Team ${n}` } }),
    release: (org, created) => org.call('owner', 'archiveTeam', { path: { teamId: created.id } }),
    countActive: async (org) => (await okBody(org.call('owner', 'listTeams'))).teams.length,
  }),
  counted({
    dimension: 'folderCount',
    initial: 0,
    create: (org, n) => org.call('owner', 'createFolder', { body: { name: `Folder ${n}` } }),
    release: (org, created) => org.call('owner', 'archiveFolder', { path: { folderId: created.id } }),
    countActive: async (org) => (await okBody(org.call('owner', 'getExplorer'))).folders.length,
  }),
  counted({
    dimension: 'projectCount',
    initial: 0,
    create: (org, n) => org.call('owner', 'createProject', { body: { name: `Project ${n}` } }),
    release: (org, created) => org.call('owner', 'archiveProject', { path: { projectId: created.id } }),
    countActive: async (org) => (await okBody(org.call('owner', 'getExplorer'))).projects.length,
  }),
];

describe('counted dimensions on create', () => {
  for (const kind of KINDS) {
    describe(kind.dimension, () => {
      it('refuses the create beyond the limit with 409 capacity_exceeded, counting active rows only', async () => {
        const org = await freshOrg(kind.dimension.toLowerCase());
        const limit = kind.initial + 2;
        await setLimits(org, { [kind.dimension]: limit });
        const first = await kind.create(org, 1);
        expect(first.status, first.text).toBe(201);
        expect((await kind.create(org, 2)).status).toBe(201);

        const refused = await kind.create(org, 3);
        expectError(refused, 409, 'capacity_exceeded');
        expect(errorBody(refused).error.message).toContain(kind.dimension);
        expect(errorBody(refused).error.message).toContain(String(limit));
        expect(await kind.countActive(org)).toBe(limit);

        // An archived or revoked row no longer counts.
        expect((await kind.release(org, first.body)).status).toBe(200);
        expect((await kind.create(org, 4)).status).toBe(201);
        expectError(await kind.create(org, 5), 409, 'capacity_exceeded');

        expect((await policy(org))[kind.dimension].inUse).toBe(limit);

        // Lowering the limit below what exists is accepted with a warning, keeps what exists and
        // refuses more; clearing lifts it.
        const lowered = await putLimits(org, { [kind.dimension]: 1 });
        expectOk(lowered);
        expect(lowered.body.warnings).toEqual([
          {
            dimension: kind.dimension,
            inUse: limit,
            effective: 1,
            message: expect.stringContaining(`${kind.dimension}: ${limit} in use, above the limit of 1`),
          },
        ]);
        expect(await kind.countActive(org)).toBe(limit);
        expectError(await kind.create(org, 6), 409, 'capacity_exceeded');
        expect((await org.call('owner', 'getCapacityPolicy')).body).toMatchObject({ warnings: lowered.body.warnings });
        const cleared = await putLimits(org, { [kind.dimension]: null });
        expect(cleared.body).toMatchObject({ warnings: [] });
        expect((await kind.create(org, 7)).status).toBe(201);
      });

      it('lets exactly the limit through when 10 creates race', async () => {
        const org = await freshOrg(`race-${kind.dimension.toLowerCase()}`);
        const limit = kind.initial + 3;
        await setLimits(org, { [kind.dimension]: limit });
        const results = await Promise.all(Array.from({ length: 10 }, (_, i) => kind.create(org, i)));
        const statuses = results.map((r) => r.status);
        expect(
          statuses.filter((s) => s === 201),
          statuses.join(' '),
        ).toHaveLength(3);
        for (const refused of results.filter((r) => r.status !== 201)) expectError(refused, 409, 'capacity_exceeded');
        expect(await kind.countActive(org)).toBe(limit);
      });
    });
  }

  it('applies the ceiling when the organization set no limit', async () => {
    const small = await TestHub.start({ config: { ceilings: loadConfig({ HUB_CEILING_TEAM_COUNT: '1' }).ceilings } });
    try {
      const org = await seedOrg(small, 'small');
      expect((await org.call('owner', 'createTeam', { body: { slug: 'one', name: 'One' } })).status).toBe(201);
      expectError(
        await org.call('owner', 'createTeam', { body: { slug: 'two', name: 'Two' } }),
        409,
        'capacity_exceeded',
      );
    } finally {
      await small.stop();
    }
  });

  it('memberCount: a reactivation counts, and already_member comes before the limit', async () => {
    const org = await freshOrg('rejoin');
    const added = await org.call('owner', 'addMember', { body: { imOpenId: `${org.slug}-rejoin`, role: 'MEMBER' } });
    expectOk(added, 201);
    expect((await org.call('owner', 'revokeMember', { path: { userId: added.body.userId } })).status).toBe(200);
    await setLimits(org, { memberCount: 3 });

    expectError(
      await org.call('owner', 'addMember', { body: { imOpenId: `${org.slug}-rejoin`, role: 'MEMBER' } }),
      409,
      'capacity_exceeded',
    );
    expectError(
      await org.call('owner', 'addMember', { body: { imOpenId: `${org.slug}-member`, role: 'MEMBER' } }),
      409,
      'already_member',
    );
    const members = (await okBody(org.call('owner', 'listMembers'))).members.map(
      (m: { imOpenId: string }) => m.imOpenId,
    );
    expect(members).not.toContain(`${org.slug}-rejoin`);

    expect((await org.call('owner', 'revokeMember', { path: { userId: org.userIds.member } })).status).toBe(200);
    expect(
      (await org.call('owner', 'addMember', { body: { imOpenId: `${org.slug}-rejoin`, role: 'MEMBER' } })).status,
    ).toBe(201);
  });

  it('a limit of 0 refuses the first create; a project created by a plain member counts too', async () => {
    const org = await freshOrg('zero');
    await setLimits(org, { teamCount: 0, projectCount: 1 });
    expectError(
      await org.call('owner', 'createTeam', { body: { slug: 'none', name: 'None' } }),
      409,
      'capacity_exceeded',
    );
    expect((await org.call('owner', 'updateOrgSettings', { body: { membersCanCreateProjects: true } })).status).toBe(
      200,
    );
    expect((await org.call('member', 'createProject', { body: { name: 'By a member' } })).status).toBe(201);
    expectError(
      await org.call('member', 'createProject', { body: { name: 'One too many' } }),
      409,
      'capacity_exceeded',
    );
  });
});

describe('requestBodySize', () => {
  /** The lowest organization limit: 64 KiB. */
  const FLOOR = 64 * 1024;
  /** A valid settings change padded with whitespace to `bytes` bytes in all. */
  const padded = (bytes: number) => {
    const json = '{"membersCanCreateProjects":true}';
    return json + ' '.repeat(bytes - json.length);
  };
  const patchSettings = (org: OrgFixture, body: string) =>
    hub.request('PATCH', `/api/org/${org.slug}/settings`, { cookie: org.cookies.owner, body });

  it('answers 413 payload_too_large to a body over the organization’s limit, and changes nothing', async () => {
    const [limited, other] = [await freshOrg('body'), await freshOrg('body-other')];
    await setLimits(limited, { requestBodySize: FLOOR });

    const refused = await patchSettings(limited, padded(FLOOR + 1));
    expectError(refused, 413, 'payload_too_large');
    expect(errorBody(refused).error.message).toContain(String(FLOOR));
    expect((await okBody(limited.call('owner', 'getOrgSettings'))).membersCanCreateProjects).toBe(false);

    expect((await patchSettings(limited, padded(FLOOR))).status).toBe(200);
    expect((await patchSettings(other, padded(FLOOR + 5000))).status).toBe(200);
  });

  it('counts bytes, not characters', async () => {
    const org = await freshOrg('bytes');
    const team = await org.call('owner', 'createTeam', { body: { slug: 'accents', name: 'Accents' } });
    expectOk(team, 201);
    await setLimits(org, { requestBodySize: FLOOR });
    const body = (chars: number) => `{"name":"Accents","description":"${'é'.repeat(chars)}"}`;
    // 33,000 characters are 66,000 bytes: over the limit although fewer characters than it.
    expectError(
      await hub.request('PATCH', `/api/org/${org.slug}/teams/${team.body.id}`, {
        cookie: org.cookies.owner,
        body: body(33_000),
      }),
      413,
      'payload_too_large',
    );
    expect(
      (
        await hub.request('PATCH', `/api/org/${org.slug}/teams/${team.body.id}`, {
          cookie: org.cookies.owner,
          body: body(1000),
        })
      ).status,
    ).toBe(200);
  });

  it(
    'refuses an organization limit under 64 KiB with 422 ' +
      'capacity_below_floor, which would lock the organization out',
    async () => {
      const org = await freshOrg('nobody');
      const before = await policy(org);
      for (const requestBodySize of [0, 1000, FLOOR - 1]) {
        const res = await putLimits(org, { requestBodySize });
        expectError(res, 422, 'capacity_below_floor');
        expect(errorBody(res).error.message).toContain('requestBodySize');
      }
      expect(await policy(org)).toEqual(before);
      expect((await org.call('owner', 'createTeam', { body: { slug: 'x', name: 'X' } })).status).toBe(201);
    },
  );

  it('cannot be raised above the ceiling, which is the server’s body limit', async () => {
    const org = await freshOrg('bigbody');
    expectError(await putLimits(org, { requestBodySize: DEFAULT_BODY_LIMIT + 1 }), 422, 'capacity_above_ceiling');
  });
});

describe('requestRate', () => {
  const MINUTE = 60_000;
  /** Starts a new rate window for every organization of the hub. */
  const nextWindow = () => hub.clock.advance(MINUTE);
  const retryAfter = (res: HttpResult) => Number(res.headers.get('retry-after'));

  it(
    'answers 429 rate_limited with Retry-After past the limit, ' + 'counting the organization’s members together',
    async () => {
      const [org, other] = [await freshOrg('rate'), await freshOrg('rate-other')];
      await setLimits(org, { requestRate: 5 });
      nextWindow();
      for (const actor of ['owner', 'member', 'admin', 'member', 'owner'] as const) {
        expect((await org.call(actor, 'getOrganization')).status, actor).toBe(200);
      }
      const refused = await org.call('member', 'getOrganization');
      expectError(refused, 429, 'rate_limited');
      expect(retryAfter(refused)).toBe(60);
      expect(errorBody(refused).error.message).toContain('5');
      expect((await other.call('member', 'getOrganization')).status).toBe(200);

      hub.clock.advance(20_000);
      expect(retryAfter(await org.call('owner', 'getCapacityPolicy'))).toBe(40);
      hub.clock.advance(40_000);
      expect((await org.call('member', 'getOrganization')).status).toBe(200);
    },
  );

  it('changes nothing when it refuses, and does not count the refused request', async () => {
    const org = await freshOrg('rate-refused');
    await setLimits(org, { requestRate: 2 });
    nextWindow();
    expect((await org.call('owner', 'createTeam', { body: { slug: 'kept', name: 'Kept' } })).status).toBe(201);
    expect((await org.call('owner', 'listTeams')).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      expectError(
        await org.call('owner', 'createTeam', { body: { slug: `refused-${i}`, name: 'Refused' } }),
        429,
        'rate_limited',
      );
    }
    nextWindow();
    const teams = await org.call('owner', 'listTeams');
    expectOk(teams);
    expect(teams.body.teams.map((t: { slug: string }) => t.slug)).toEqual(['kept']);
    // Refused requests did not eat into the new window: one request is left after that GET.
    expect((await org.call('owner', 'getOrganization')).status).toBe(200);
    expectError(await org.call('owner', 'getOrganization'), 429, 'rate_limited');
  });

  it('counts every request of a member, refused by role or not, and no request of an outsider', async () => {
    const org = await freshOrg('rate-who');
    const outsider = await freshOrg('rate-outsider');
    await setLimits(org, { requestRate: 3 });
    nextWindow();
    for (let i = 0; i < 5; i++) {
      expectError(await hub.call('getOrganization', { path: { orgSlug: org.slug } }), 401, 'unauthenticated');
      expectError(
        await hub.call('getOrganization', { path: { orgSlug: org.slug }, cookie: outsider.cookies.owner }),
        404,
        'org_not_found',
      );
    }
    expectError(await org.call('member', 'listMembers'), 403, 'org_admin_required');
    expect((await org.call('member', 'getOrganization')).status).toBe(200);
    expect((await org.call('owner', 'listMembers')).status).toBe(200);
    expectError(await org.call('owner', 'getOrganization'), 429, 'rate_limited');
  });

  it('applies the ceiling when the organization set no limit', async () => {
    const strict = await TestHub.start({
      config: { ceilings: loadConfig({ HUB_CEILING_REQUEST_RATE: '3' }).ceilings },
    });
    try {
      const org = await seedOrg(strict, 'strict');
      const rows = rowsOf(await org.call('owner', 'getCapacityPolicy'));
      expect(rows.requestRate).toEqual({
        dimension: 'requestRate',
        platformCeiling: 3,
        organizationLimit: null,
        effective: 3,
        inUse: null,
      });
      expect((await org.call('member', 'getOrganization')).status).toBe(200);
      expect((await org.call('member', 'getOrganization')).status).toBe(200);
      const refused = await org.call('member', 'getOrganization');
      expectError(refused, 429, 'rate_limited');
      strict.clock.advance(retryAfter(refused) * 1000);
      expect((await org.call('member', 'getOrganization')).status).toBe(200);
    } finally {
      await strict.stop();
    }
  });

  it(
    'refuses an organization limit under 1 request per minute with ' +
      '422 capacity_below_floor, which would lock the organization out',
    async () => {
      const org = await freshOrg('rate-zero');
      const before = (await org.call('owner', 'getCapacityPolicy')).body;
      for (const requestRate of [0, 0.5])
        expectError(await putLimits(org, { requestRate }), 422, 'capacity_below_floor');
      expect((await org.call('owner', 'getCapacityPolicy')).body).toEqual(before);
      expect((await org.call('member', 'getOrganization')).status).toBe(200);
    },
  );
});

describe('hub capacity clear <org> <dimension>', () => {
  const cli = (args: string[]) =>
    runHub(['capacity', 'clear', ...args], cliEnv(hub.database.dataDir, hub.database.databaseUrl));

  it('lifts an organization limit the API could not lift any more, and says what applies now', async () => {
    const org = await freshOrg('lift');
    await setLimits(org, { requestRate: 1, teamCount: 3 });
    hub.clock.advance(60_000);
    expect((await org.call('owner', 'getOrganization')).status).toBe(200);
    // The organization has spent its one request of the minute:
    // not even the PUT that would lift the limit gets through.
    expectError(await putLimits(org, { requestRate: null }), 429, 'rate_limited');

    const result = await cli([org.slug, 'requestRate']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`cleared ${org.slug} requestRate; effective limit 600 (the platform ceiling)\n`);
    // The server drops its cached limits within 2 seconds of another process's change.
    hub.clock.advance(60_000);
    const rows = await policy(org);
    expect(rows.requestRate).toEqual({
      dimension: 'requestRate',
      platformCeiling: 10000,
      organizationLimit: null,
      effective: 10000,
      inUse: null,
    });
    expect(rows.teamCount.organizationLimit).toBe(3);

    const again = await cli([org.slug, 'requestRate']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^no limit to clear: /);
  });

  it('refuses an unknown organization or dimension with one line and exit 2, changing nothing', async () => {
    const org = await freshOrg('lift-bad');
    await setLimits(org, { teamCount: 3 });
    for (const args of [['no-such-org', 'teamCount'], [org.slug, 'teams'], [org.slug, 'TEAM_COUNT'], [org.slug]]) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    expect((await policy(org)).teamCount.organizationLimit).toBe(3);
  });
});
