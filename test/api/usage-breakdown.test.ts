import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryParams } from '../support/api-client.js';
import { expectError, okBody } from '../support/assertions.js';
import { cliEnv, runHub } from '../support/hub-cli.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { runLine, writeJsonl } from '../support/usage-runs.js';

/** Usage facts on runs (`hub usage ingest`) and `getUsageBreakdown`. */

let hub: TestHub;
let org: OrgFixture;
let other: OrgFixture;
let env: NodeJS.ProcessEnv;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'breakdown-'));
const ids: Record<string, string> = {};

const jsonl = (name: string, lines: Array<Record<string, unknown> | string>) => writeJsonl(tmp, name, lines);
/** A run line with these facts (none when undefined). */
const run = (projectId: string, sessionId: string, at: string, facts: unknown[] | undefined) =>
  runLine(projectId, sessionId, at, facts ? { facts } : {});
const model = (quantity: number, costUsd: number | null) => ({ kind: 'model', quantity, unit: 'tokens', costUsd });
const tool = (quantity: number, costUsd: number | null) => ({ kind: 'tool', quantity, unit: 'calls', costUsd });
const capability = (capabilityId: string, quantity: number, costUsd: number | null) => ({
  kind: 'capability',
  capabilityId,
  quantity,
  unit: 'calls',
  costUsd,
});

const breakdown = (query: QueryParams<'getUsageBreakdown'> = {}) =>
  okBody(org.call('admin', 'getUsageBreakdown', { query }));
const factCount = async () => Number((await hub.services.db('run_facts').count({ n: '*' }).first())?.n);

const folder = async (name: string, parentId?: string) =>
  (await okBody(org.call('owner', 'createFolder', { body: parentId ? { name, parentId } : { name } }), 201)).id;
const project = async (of: OrgFixture, name: string, folderId?: string) =>
  (await okBody(of.call('owner', 'createProject', { body: folderId ? { name, folderId } : { name } }), 201)).id;

beforeAll(async () => {
  [hub] = [await TestHub.start()];
  [org, other] = [await seedOrg(hub, 'acme'), await seedOrg(hub, 'globex')];
  env = cliEnv(hub.database.dataDir, hub.database.databaseUrl);
  // research/ ─ deep/: alpha in research, beta in deep, root at the root.
  ids.research = await folder('Research');
  ids.deep = await folder('Deep', ids.research);
  ids.alpha = await project(org, 'alpha', ids.research);
  ids.beta = await project(org, 'beta', ids.deep);
  ids.root = await project(org, 'root');
  ids.globex = await project(other, 'globex');
});
afterAll(async () => {
  await hub.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('facts in hub usage ingest', () => {
  it('checks every fact like every other field: a bad one names its line, and nothing is written', async () => {
    const at = '2026-01-05T10:00:00Z';
    const cases: Array<[unknown[], RegExp]> = [
      [[{ kind: 'model', quantity: 5, unit: 'calls', costUsd: 0 }], /line 2: facts\/0\/unit must be "tokens"/],
      [
        [{ kind: 'capability', quantity: 5, unit: 'calls', costUsd: 0 }],
        /line 2: facts\/0 is a capability fact without capabilityId/,
      ],
      [
        [{ kind: 'tool', capabilityId: 'web', quantity: 5, unit: 'calls', costUsd: 0 }],
        /line 2: facts\/0\/capabilityId is only for capability facts/,
      ],
      [[{ kind: 'memory', quantity: 5, unit: 'calls', costUsd: 0 }], /line 2: facts\/0\/kind/],
      [[model(-1, 0)], /line 2: facts\/0\/quantity must be >= 0/],
      [[model(1.5, 0)], /line 2: facts\/0\/quantity must be integer/],
      [[model(5, -1)], /line 2: facts\/0\/costUsd must be >= 0/],
      [[{ kind: 'model', quantity: 5, unit: 'tokens' }], /line 2: .*costUsd/],
      [[{ ...model(5, 0), extra: 1 }], /line 2: unknown field "extra"/],
      [[capability('Web_Search', 1, 0)], /line 2: facts\/0\/capabilityId must match pattern/],
      [Array.from({ length: 101 }, () => model(1, 0)), /line 2: facts must NOT have more than 100 items/],
    ];
    for (const [facts, message] of cases) {
      const file = jsonl('bad.jsonl', [
        run(ids.alpha!, 's-bad', at, [model(1, 0)]),
        run(ids.alpha!, 's-bad', at, facts),
      ]);
      const result = await runHub(['usage', 'ingest', file, '--org', 'acme'], env);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(await factCount()).toBe(0);
  });

  it('loads the facts of each run with the run, in one transaction', async () => {
    const file = jsonl('runs.jsonl', [
      run(ids.alpha!, 's-a', '2026-01-10T09:00:00Z', [
        model(1000, 0.3),
        tool(2, null),
        capability('web-search', 3, 0.03),
      ]),
      run(ids.alpha!, 's-a', '2026-01-20T09:00:00Z', [model(500, null), capability('docs', 1, null)]),
      run(ids.beta!, 's-b', '2026-02-10T09:00:00Z', [
        model(2000, 0.6),
        capability('web-search', 2, 0.02),
        capability('web-search', 1, null),
      ]),
      run(ids.root!, 's-r', '2026-03-01T00:00:00Z', undefined),
      run(ids.root!, 's-r', '2026-03-02T00:00:00Z', []),
      run(ids.root!, 's-r', '2026-03-03T00:00:00Z', [tool(4, 0.04)]),
    ]);
    const result = await runHub(['usage', 'ingest', file, '--org', 'acme'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ingested 6 runs in 3 sessions into acme/);
    expect(await factCount()).toBe(9);
  });
});

describe('getUsageBreakdown', () => {
  it('sums every fact by kind and by capability, with null costs only where no fact has one', async () => {
    await okBody(
      org.call('owner', 'putCapabilityConnection', {
        path: { capabilityId: 'web-search' },
        body: { label: 'Web search', kind: 'http', endpointUrl: 'https://search.example.com' },
      }),
    );
    const body = await breakdown();
    expect(body.from).toBeNull();
    expect(body.to).toBeNull();
    expect(body.byFactKind).toEqual([
      { kind: 'model', factCount: 3, quantity: 3500, costUsd: expect.closeTo(0.9, 9) },
      { kind: 'tool', factCount: 2, quantity: 6, costUsd: expect.closeTo(0.04, 9) },
      { kind: 'capability', factCount: 4, quantity: 7, costUsd: expect.closeTo(0.05, 9) },
    ]);
    expect(body.byCapability).toEqual([
      { capabilityId: 'docs', label: null, factCount: 1, quantity: 1, costUsd: null },
      { capabilityId: 'web-search', label: 'Web search', factCount: 3, quantity: 6, costUsd: expect.closeTo(0.05, 9) },
    ]);
  });

  it('takes the label from the connection whatever its status, and only from the same organization', async () => {
    await okBody(org.call('owner', 'disableCapabilityConnection', { path: { capabilityId: 'web-search' } }));
    await okBody(
      other.call('owner', 'putCapabilityConnection', {
        path: { capabilityId: 'docs' },
        body: { label: 'Not ours', kind: 'mcp', endpointUrl: 'https://docs.example.com' },
      }),
    );
    const body = await breakdown();
    expect(body.byCapability.map((r) => [r.capabilityId, r.label])).toEqual([
      ['docs', null],
      ['web-search', 'Web search'],
    ]);
  });

  it('applies the window [from, to) by the run’s time, as /usage does', async () => {
    const january = await breakdown({ from: '2026-01-01T00:00:00Z', to: '2026-01-20T09:00:00Z' });
    expect(january).toMatchObject({ from: '2026-01-01T00:00:00.000Z', to: '2026-01-20T09:00:00.000Z' });
    expect(january.byFactKind.map((r) => [r.kind, r.factCount])).toEqual([
      ['model', 1],
      ['tool', 1],
      ['capability', 1],
    ]);
    expect(january.byCapability.map((r) => r.capabilityId)).toEqual(['web-search']);
    const empty = await breakdown({ from: '2027-01-01T00:00:00Z' });
    expect(empty).toEqual({ from: '2027-01-01T00:00:00.000Z', to: null, byFactKind: [], byCapability: [] });
  });

  it('covers a folder’s whole subtree, archived projects included, and one project', async () => {
    await okBody(org.call('owner', 'archiveProject', { path: { projectId: ids.beta! } }));
    const research = await breakdown({ folderId: ids.research! });
    expect(research.byFactKind.map((r) => [r.kind, r.factCount])).toEqual([
      ['model', 3],
      ['tool', 1],
      ['capability', 4],
    ]);
    const deep = await breakdown({ folderId: ids.deep! });
    expect(deep.byCapability).toEqual([
      { capabilityId: 'web-search', label: 'Web search', factCount: 2, quantity: 3, costUsd: expect.closeTo(0.02, 9) },
    ]);
    const root = await breakdown({ projectId: ids.root! });
    expect(root.byFactKind).toEqual([{ kind: 'tool', factCount: 1, quantity: 4, costUsd: expect.closeTo(0.04, 9) }]);
    expect((await breakdown({ projectId: ids.root!, folderId: ids.research! })).byFactKind).toEqual([]);
    expect(
      (await breakdown({ projectId: ids.alpha!, folderId: ids.research! })).byFactKind.map((r) => r.factCount),
    ).toEqual([2, 1, 2]);
  });

  it(
    'refuses another organization’s folder or project with 404, ' + 'a reversed window and bad values with 400',
    async () => {
      const foreignFolder = (await okBody(other.call('owner', 'createFolder', { body: { name: 'Theirs' } }))).id;
      expectError(
        await org.call('admin', 'getUsageBreakdown', { query: { folderId: foreignFolder } }),
        404,
        'folder_not_found',
      );
      expectError(
        await org.call('admin', 'getUsageBreakdown', { query: { projectId: ids.globex! } }),
        404,
        'project_not_found',
      );
      expectError(
        await org.call('admin', 'getUsageBreakdown', { query: { projectId: 'no-such-project' } }),
        404,
        'project_not_found',
      );
      expectError(
        await org.call('admin', 'getUsageBreakdown', {
          query: { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' },
        }),
        400,
        'validation_failed',
      );
      expectError(await org.api('admin', 'GET', '/usage/breakdown?from=yesterday'), 400, 'validation_failed');
      expectError(await org.call('member', 'getUsageBreakdown'), 403, 'org_admin_required');
    },
  );

  it('aggregates in SQL from the rollups: one statement per table, whatever the number of facts', async () => {
    const statements: string[] = [];
    const listener = (query: { sql: string }) => statements.push(query.sql);
    hub.services.db.on('query', listener);
    try {
      await hub.services.usage.breakdown(org.id, {});
    } finally {
      hub.services.db.off('query', listener);
    }
    // The whole history is whole months: the organization's monthly fact rollup answers it, and no
    // statement reads raw facts or a daily level.
    expect(statements.filter((sql) => /run_facts|usage_fact_days/.test(sql))).toHaveLength(0);
    const onFacts = statements.filter((sql) => /usage_fact_org_months/.test(sql));
    expect(onFacts).toHaveLength(2);
    for (const sql of onFacts) expect(sql).toMatch(/group by/i);
  });
});
