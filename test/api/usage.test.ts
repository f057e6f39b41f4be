import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryParams } from '../support/api-client.js';
import { TestHub } from '../support/test-hub.js';
import { seedOrg, type OrgActor, type OrgFixture } from '../support/org-fixture.js';
import { expectError, okBody } from '../support/assertions.js';
import { cliEnv, runHub } from '../support/hub-cli.js';
import { runLine, writeJsonl } from '../support/usage-runs.js';
import { UnitOfWork } from '../../src/db/unit-of-work.js';
import { UsageService } from '../../src/usage/service.js';
import { IngestStore } from '../../src/usage/ingest-store.js';
import { RollupStore } from '../../src/usage/rollup-store.js';
import { TeamSums } from '../../src/usage/team-sums.js';
import { UsageStore } from '../../src/usage/store.js';

let hub: TestHub;
let org: OrgFixture;
let other: OrgFixture;
let env: NodeJS.ProcessEnv;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'usage-'));
const ids: Record<string, string> = {};

const jsonl = (name: string, lines: Array<Record<string, unknown> | string>) => writeJsonl(tmp, name, lines);
const run = runLine;

const report = (query: QueryParams<'getUsageReport'> = {}, actor: OrgActor = 'admin') =>
  org.call(actor, 'getUsageReport', { query });
const runCount = async () => Number((await hub.services.db('runs').count({ n: '*' }).first())?.n);

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'acme');
  other = await seedOrg(hub, 'globex');
  env = cliEnv(hub.database.dataDir, hub.database.databaseUrl);
  // research/ ─ deep/ ; ops/
  ids.research = (await okBody(org.call('owner', 'createFolder', { body: { name: 'Research' } }))).id;
  ids.deep = (await okBody(org.call('owner', 'createFolder', { body: { name: 'Deep', parentId: ids.research } }))).id;
  ids.ops = (await okBody(org.call('owner', 'createFolder', { body: { name: 'Ops' } }))).id;
  ids.alpha = (
    await okBody(org.call('owner', 'createProject', { body: { name: 'alpha', folderId: ids.research } }))
  ).id;
  ids.beta = (await okBody(org.call('owner', 'createProject', { body: { name: 'Beta', folderId: ids.deep } }))).id;
  ids.gamma = (await okBody(org.call('owner', 'createProject', { body: { name: 'gamma', folderId: ids.ops } }))).id;
  ids.root = (await okBody(org.call('owner', 'createProject', { body: { name: 'Root project' } }))).id;
  ids.globex = (await okBody(other.call('owner', 'createProject', { body: { name: 'Globex project' } }))).id;
});
afterAll(async () => {
  await hub.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('hub usage ingest', () => {
  it('stops at a bad line, naming its number, and writes nothing', async () => {
    const cases: Array<[Array<Record<string, unknown> | string>, RegExp]> = [
      [[run(ids.alpha!, 's-a', '2026-01-05T10:00:00Z'), '{"projectId": oops'], /line 2: not valid JSON/],
      [[run(ids.alpha!, 's-a', '2026-01-05T10:00:00Z'), run(ids.alpha!, 's-a', 'yesterday')], /line 2: at "yesterday"/],
      // Strict RFC 3339: impossible dates are refused, never rolled over to another day.
      [
        [run(ids.alpha!, 's-a', '2026-02-30T10:00:00Z')],
        /line 1: at "2026-02-30T10:00:00Z" is not an RFC 3339 timestamp/,
      ],
      [[run(ids.alpha!, 's-a', '2026-06-30T23:59:60Z')], /line 1: at "2026-06-30T23:59:60Z"/],
      [[run(ids.alpha!, 's-a', '2026-01-05T10:00:00Z', { inputTokens: -1 })], /line 1: inputTokens must be >= 0/],
      [[run(ids.alpha!, 's-a', '2026-01-05T10:00:00Z', { costUsd: undefined })], /line 1: costUsd/],
      [[run(ids.alpha!, 's-a', '2026-01-05T10:00:00Z', { extra: 1 })], /line 1: unknown field "extra"/],
      [
        ['', run(ids.alpha!, 's-a', '2026-01-05T10:00:00Z'), run(ids.globex!, 's-b', '2026-01-05T10:00:00Z')],
        /line 3: no project/,
      ],
      [
        [run(ids.alpha!, 's-a', '2026-01-05T10:00:00Z'), run(ids.beta!, 's-a', '2026-01-05T11:00:00Z')],
        /line 2: session s-a belongs to project/,
      ],
    ];
    for (const [lines, message] of cases) {
      const result = await runHub(['usage', 'ingest', jsonl('bad.jsonl', lines), '--org', 'acme'], env);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(await runCount()).toBe(0);
    expect((await runHub(['usage', 'ingest', path.join(tmp, 'missing.jsonl'), '--org', 'acme'], env)).stderr).toMatch(
      /no file/,
    );
    expect((await runHub(['usage', 'ingest', jsonl('x.jsonl', []), '--org', 'nope'], env)).stderr).toMatch(
      /no organization "nope"/,
    );
    expect((await runHub(['usage', 'ingest', jsonl('x.jsonl', [])], env)).stderr).toMatch(/--org is required/);
  });

  it('loads runs and creates or widens their sessions', async () => {
    const file = jsonl('runs.jsonl', [
      run(ids.alpha!, 's-alpha-1', '2026-01-10T09:00:00Z', { title: 'First title' }),
      run(ids.alpha!, 's-alpha-1', '2026-01-10T08:00:00+01:00', { costUsd: null }),
      run(ids.alpha!, 's-alpha-1', '2026-01-12T09:00:00Z', { title: 'Latest title', inputTokens: 1000 }),
      run(ids.beta!, 's-beta-1', '2026-02-01T00:00:00Z', { costUsd: null }),
      run(ids.gamma!, 's-gamma-1', '2026-02-15T12:00:00.250Z', { costUsd: 2 }),
      run(ids.root!, 's-root-1', '2026-03-01T00:00:00Z'),
    ]);
    const result = await runHub(['usage', 'ingest', file, '--org', 'acme'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ingested 6 runs in 4 sessions into acme \(\d+\.\d s\)\n$/);
    const sessions = (await okBody(org.call('owner', 'listProjectSessions', { path: { projectId: ids.alpha! } })))
      .sessions;
    expect(sessions).toEqual([
      {
        id: 's-alpha-1',
        provider: 'anthropic',
        roleId: 'coder',
        model: 'model-a',
        title: 'Latest title',
        runCount: 3,
        createdAt: '2026-01-10T07:00:00.000Z',
        updatedAt: '2026-01-12T09:00:00.000Z',
      },
    ]);

    // A later file widens the existing session.
    const more = jsonl('more.jsonl', [run(ids.alpha!, 's-alpha-1', '2026-01-01T00:00:00Z', { costUsd: 0.25 })]);
    expect((await runHub(['usage', 'ingest', more, '--org', 'acme'], env)).code).toBe(0);
    const widened = (await okBody(org.call('owner', 'listProjectSessions', { path: { projectId: ids.alpha! } })))
      .sessions[0];
    expect(widened).toMatchObject({
      runCount: 4,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-12T09:00:00.000Z',
      title: 'Latest title',
    });
  });

  it('reports progress on large files', async () => {
    // More runs than one INSERT statement carries, so the batching is exercised too.
    const lines = Array.from({ length: 1250 }, (_, i) =>
      run(ids.root!, 's-progress', new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(), {
        costUsd: null,
        inputTokens: 0,
        outputTokens: 0,
      }),
    );
    const progress: string[] = [];
    const acme = await hub.services.organizations.findBySlug('acme');
    const result = await hub.services.usage.ingest(
      acme!.id,
      jsonl('big.jsonl', lines),
      (p) => progress.push(`${p.phase} ${p.lines}`),
      600,
    );
    expect(result).toEqual({ runs: 1250, sessions: 1 });
    expect(progress).toEqual(['checked 600', 'checked 1200', 'written 600', 'written 1200']);
  });

  // In an organization of their own, so the reports below see none of these runs.
  describe('a failure in the write pass, with the next batch already being written', () => {
    const lines = () =>
      Array.from({ length: 1250 }, (_, i) =>
        run(ids.initech!, 's-failing', new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(), { costUsd: null }),
      );
    const nothingWritten = async () => {
      expect(await runCount()).toBe(runsBefore);
      expect(await hub.services.db('agent_sessions').where({ id: 's-failing' }).first()).toBeUndefined();
    };
    let runsBefore = 0;
    let initechId = '';
    let initech: OrgFixture;
    beforeAll(async () => {
      initech = await seedOrg(hub, 'initech');
      initechId = (await hub.services.organizations.findBySlug('initech'))!.id;
      ids.initech = (await okBody(initech.call('owner', 'createProject', { body: { name: 'Initech project' } }))).id;
      runsBefore = await runCount();
    });

    it('a bad line after batches were written rolls them back', async () => {
      const projectOfElsewhere = run(ids.globex!, 's-elsewhere', '2024-02-01T00:00:00Z', { costUsd: null });
      for (const [bad, message] of [
        ['{"projectId": oops', /line 1201: not valid JSON/],
        [projectOfElsewhere, /line 1201: no project/],
      ] as const) {
        const progress: string[] = [];
        const ingest = hub.services.usage.ingest(
          initechId,
          jsonl('late-bad-line.jsonl', [...lines().slice(0, 1200), bad, ...lines().slice(1200)]),
          (p) => progress.push(`${p.phase} ${p.lines}`),
          600,
        );
        await expect(ingest).rejects.toThrow(message);
        expect(progress).toContain('written 600');
        await nothingWritten();
      }
    });

    it('a session found to belong to another project after every run was written rolls them back', async () => {
      const otherProject = (
        await okBody(initech.call('owner', 'createProject', { body: { name: 'Initech other project' } }))
      ).id;
      const taken = run(otherProject, 's-taken', '2024-03-01T00:00:00Z', { costUsd: null });
      await hub.services.usage.ingest(initechId, jsonl('taken.jsonl', [taken]));
      runsBefore = await runCount();
      const late = run(ids.initech!, 's-taken', '2024-03-02T00:00:00Z', { costUsd: null });
      const ingest = hub.services.usage.ingest(initechId, jsonl('late-taken.jsonl', [...lines(), late]), () => {}, 600);
      await expect(ingest).rejects.toThrow(/line 1251: session s-taken already exists for another project/);
      await nothingWritten();
      expect(await hub.services.db('agent_sessions').where({ id: 's-taken' }).first()).toMatchObject({
        project_id: otherProject,
        run_count: 1,
      });
    });

    it('a write the database refuses rolls every batch back', async () => {
      let writes = 0;
      const store = new IngestStore();
      const prepareBatch = store.prepareBatch.bind(store);
      store.prepareBatch = (trx, runs, facts) => {
        const write = prepareBatch(trx, runs, facts);
        return async () => {
          writes += 1;
          if (writes === 2) throw new Error('disk full');
          await write();
        };
      };
      const reads = new UsageStore(hub.services.folderStore);
      const stores = { reads, teams: new TeamSums(reads), ingest: store, rollups: new RollupStore() };
      const usage = new UsageService(new UnitOfWork(hub.services.db), stores, hub.services.folderStore);
      await expect(usage.ingest(initechId, jsonl('refused.jsonl', lines()), () => {}, 600)).rejects.toThrow(
        'disk full',
      );
      expect(writes).toBe(2);
      await nothingWritten();
    });

    it('a failure while reading the next batch waits for the write in flight, then rolls back', async () => {
      const failing = hub.services.usage.ingest(
        initechId,
        jsonl('interrupted.jsonl', lines()),
        (p) => {
          if (p.phase === 'written') throw new Error('interrupted');
        },
        600,
      );
      await expect(failing).rejects.toThrow('interrupted');
      await nothingWritten();
      // The connection is free and the data intact: the same file loads whole afterwards.
      expect(await hub.services.usage.ingest(initechId, path.join(tmp, 'interrupted.jsonl'))).toEqual({
        runs: 1250,
        sessions: 1,
      });
      expect(await runCount()).toBe(runsBefore + 1250);
    });
  });
});

describe('GET /usage', () => {
  const alphaRow = (extra: Record<string, unknown> = {}) => ({
    projectId: ids.alpha,
    projectName: 'alpha',
    folderId: ids.research,
    runCount: 4,
    runsWithCost: 3,
    runsWithoutCost: 1,
    inputTokens: 1300,
    outputTokens: 40,
    costUsd: 1.25,
    ...extra,
  });

  it('sums every project with runs, sorted by name, with totals', async () => {
    const res = await okBody(report());
    expect(res.from).toBeNull();
    expect(res.to).toBeNull();
    expect(res.projects.map((p: { projectName: string }) => p.projectName)).toEqual([
      'alpha',
      'Beta',
      'gamma',
      'Root project',
    ]);
    expect(res.projects[0]).toEqual(alphaRow());
    expect(res.projects[1]).toMatchObject({
      projectName: 'Beta',
      runCount: 1,
      runsWithCost: 0,
      runsWithoutCost: 1,
      costUsd: null,
    });
    expect(res.totals).toEqual({
      runCount: res.projects.reduce((n: number, p: { runCount: number }) => n + p.runCount, 0),
      runsWithCost: 3 + 0 + 1 + 1,
      runsWithoutCost: 1 + 1 + 0 + 1250,
      inputTokens: 1300 + 100 + 100 + 100,
      outputTokens: 40 + 10 + 10 + 10,
      costUsd: 1.25 + 2 + 0.5,
    });
  });

  it('takes from inclusive and to exclusive, and echoes them normalized', async () => {
    const res = await okBody(report({ from: '2026-02-01T00:00:00Z', to: '2026-03-01T00:00:00+00:00' }));
    expect(res.from).toBe('2026-02-01T00:00:00.000Z');
    expect(res.to).toBe('2026-03-01T00:00:00.000Z');
    expect(res.projects.map((p: { projectName: string }) => p.projectName)).toEqual(['Beta', 'gamma']);
    const empty = await okBody(report({ from: '2030-01-01T00:00:00Z' }));
    expect(empty.projects).toEqual([]);
    expect(empty.totals).toEqual({
      runCount: 0,
      runsWithCost: 0,
      runsWithoutCost: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: null,
    });
  });

  it('covers a folder’s whole subtree, archived projects included', async () => {
    await okBody(org.call('owner', 'archiveProject', { path: { projectId: ids.beta! } }));
    const res = await okBody(report({ folderId: ids.research }));
    expect(res.projects.map((p: { projectName: string }) => p.projectName)).toEqual(['alpha', 'Beta']);
    const deep = await okBody(report({ folderId: ids.deep }));
    expect(deep.projects.map((p: { projectName: string }) => p.projectName)).toEqual(['Beta']);
    // An archived folder is still walked, and still answers on its own.
    await okBody(org.call('owner', 'archiveFolder', { path: { folderId: ids.deep! } }));
    const walked = await okBody(report({ folderId: ids.research }));
    expect(walked.projects.map((p: { projectName: string }) => p.projectName)).toEqual(['alpha', 'Beta']);
    expect((await okBody(report({ folderId: ids.deep }))).projects).toHaveLength(1);
  });

  it('answers an empty report for a folder with no runs below it', async () => {
    const empty = await okBody(org.call('owner', 'createFolder', { body: { name: 'Empty' } }));
    const res = await okBody(report({ folderId: empty.id }));
    expect(res.projects).toEqual([]);
    expect(res.totals.runCount).toBe(0);
  });

  it('refuses a folder of another organization, a reversed window and bad values', async () => {
    const foreign = await okBody(other.call('owner', 'createFolder', { body: { name: 'Theirs' } }));
    expectError(await report({ folderId: foreign.id }), 404, 'folder_not_found');
    expectError(await report({ from: '2026-03-01T00:00:00Z', to: '2026-02-01T00:00:00Z' }), 400, 'validation_failed');
    expectError(await report({ from: 'yesterday' }), 400, 'validation_failed');
    expectError(await org.api('admin', 'GET', '/usage?since=2026-01-01T00:00:00Z'), 400, 'validation_failed');
  });

  it('is for org admins only', async () => {
    expectError(await report({}, 'member'), 403, 'org_admin_required');
    expectError(await hub.call('getUsageReport', { path: { orgSlug: 'acme' } }), 401, 'unauthenticated');
    expectError(
      await hub.call('getUsageReport', { path: { orgSlug: 'acme' }, cookie: other.cookies.owner }),
      404,
      'org_not_found',
    );
    expect((await report({}, 'owner')).status).toBe(200);
    const theirs = await okBody(other.call('owner', 'getUsageReport'));
    expect(theirs.projects).toEqual([]);
  });
});
