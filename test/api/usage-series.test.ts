import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryParams } from '../support/api-client.js';
import { expectError, okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { runLine, writeJsonl } from '../support/usage-runs.js';

/** `getUsageSeries`: the runs of a window per UTC day, week or month and per project, model, provider or role. */

let hub: TestHub;
let org: OrgFixture;
let other: OrgFixture;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'series-'));
const ids: Record<string, string> = {};

type SeriesQuery = QueryParams<'getUsageSeries'>;
const NOV = { from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z' };
const series = (query: Partial<SeriesQuery> = {}) =>
  okBody(org.call('admin', 'getUsageSeries', { query: { ...NOV, ...query } }));
const ingest = async (of: OrgFixture, name: string, lines: Array<Record<string, unknown>>) =>
  hub.services.usage.ingest(of.id, writeJsonl(tmp, name, lines));
const folder = async (name: string, parentId?: string) =>
  (await okBody(org.call('owner', 'createFolder', { body: parentId ? { name, parentId } : { name } }), 201)).id;
const project = async (of: OrgFixture, name: string, folderId?: string) =>
  (await okBody(of.call('owner', 'createProject', { body: folderId ? { name, folderId } : { name } }), 201)).id;

beforeAll(async () => {
  hub = await TestHub.start();
  [org, other] = [await seedOrg(hub, 'acme'), await seedOrg(hub, 'globex')];
  ids.research = await folder('Research');
  ids.deep = await folder('Deep', ids.research);
  ids.alpha = await project(org, 'alpha', ids.research);
  ids.beta = await project(org, 'Beta', ids.deep);
  ids.root = await project(org, 'root');
  ids.globex = await project(other, 'globex');
  await okBody(org.call('owner', 'putAgentRole', { path: { roleId: 'coder' }, body: { label: 'Coder' } }));
  const a = ids.alpha!;
  await ingest(org, 'acme.jsonl', [
    // Sunday 1 November, late in the UTC day (an hour earlier written with an offset).
    runLine(a, 's-a1', '2026-11-01T23:30:00Z'),
    runLine(a, 's-a1', '2026-11-02T00:30:00+01:00', { costUsd: null, inputTokens: 7 }),
    // Monday 2 November, at midnight: the second week.
    runLine(a, 's-a2', '2026-11-02T00:00:00Z', { model: 'model-b', provider: 'openai', roleId: 'reviewer' }),
    runLine(ids.beta!, 's-b1', '2026-11-03T12:00:00Z', { costUsd: null }),
    runLine(ids.root!, 's-r1', '2026-11-30T23:59:59.999Z', { costUsd: 1.25 }),
    // Outside November on both sides.
    runLine(a, 's-a1', '2026-10-31T23:59:59.999Z'),
    runLine(a, 's-a1', '2026-12-01T00:00:00Z'),
  ]);
  await ingest(other, 'globex.jsonl', [runLine(ids.globex!, 's-g1', '2026-11-05T10:00:00Z')]);
});
afterAll(async () => {
  await hub.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const group = (key: string, label: string, runCount: number, costUsd: number | null, inputTokens = 100 * runCount) => ({
  key,
  label,
  runCount,
  inputTokens,
  outputTokens: 10 * runCount,
  costUsd,
});

describe('getUsageSeries', () => {
  it('lists every UTC day of the window, empty ones with no groups, each group summed', async () => {
    const { buckets } = await series();
    expect(buckets).toHaveLength(30);
    expect(buckets[0]).toEqual({
      start: '2026-11-01T00:00:00.000Z',
      groups: [group(ids.alpha!, 'alpha', 2, 0.5, 107)],
    });
    expect(buckets[1]).toEqual({ start: '2026-11-02T00:00:00.000Z', groups: [group(ids.alpha!, 'alpha', 1, 0.5)] });
    // A group whose runs all have an unknown cost has a null cost, as in the report.
    expect(buckets[2]).toEqual({ start: '2026-11-03T00:00:00.000Z', groups: [group(ids.beta!, 'Beta', 1, null)] });
    expect(buckets[3]).toEqual({ start: '2026-11-04T00:00:00.000Z', groups: [] });
    expect(buckets[29]).toEqual({ start: '2026-11-30T00:00:00.000Z', groups: [group(ids.root!, 'root', 1, 1.25)] });
    expect(buckets.slice(3, 29).every((b) => b.groups.length === 0)).toBe(true);
  });

  it('starts weeks on Monday and months on the first, the window cutting the first and last bucket', async () => {
    const weeks = await series({ bucket: 'week' });
    expect(weeks.buckets.map((b) => b.start.slice(0, 10))).toEqual([
      '2026-10-26',
      '2026-11-02',
      '2026-11-09',
      '2026-11-16',
      '2026-11-23',
      '2026-11-30',
    ]);
    // The week of Monday 26 October holds only Sunday 1 November's runs: the window starts then.
    expect(weeks.buckets[0]!.groups).toEqual([group(ids.alpha!, 'alpha', 2, 0.5, 107)]);
    expect(weeks.buckets[1]!.groups).toEqual([group(ids.alpha!, 'alpha', 1, 0.5), group(ids.beta!, 'Beta', 1, null)]);
    const months = await series({ from: '2026-10-15T00:00:00Z', to: '2026-12-01T00:00:01Z', bucket: 'month' });
    expect(months.buckets.map((b) => b.start)).toEqual([
      '2026-10-01T00:00:00.000Z',
      '2026-11-01T00:00:00.000Z',
      '2026-12-01T00:00:00.000Z',
    ]);
    expect(months.buckets.map((b) => b.groups.reduce((n, g) => n + g.runCount, 0))).toEqual([1, 5, 1]);
  });

  it('groups by model, provider or role (labelled by the role’s label, or its id when undefined)', async () => {
    const month = { bucket: 'month' } as const;
    const [byModel, byProvider, byRole] = await Promise.all([
      series({ ...month, groupBy: 'model' }),
      series({ ...month, groupBy: 'provider' }),
      series({ ...month, groupBy: 'role' }),
    ]);
    expect(byModel.buckets[0]!.groups).toEqual([
      group('model-a', 'model-a', 4, 1.75, 307),
      group('model-b', 'model-b', 1, 0.5),
    ]);
    expect(byProvider.buckets[0]!.groups.map((g) => [g.key, g.runCount])).toEqual([
      ['anthropic', 4],
      ['openai', 1],
    ]);
    expect(byRole.buckets[0]!.groups.map((g) => [g.key, g.label, g.runCount])).toEqual([
      ['coder', 'Coder', 4],
      ['reviewer', 'reviewer', 1],
    ]);
  });

  it('filters by folder subtree, and answers the same sums as the report', async () => {
    const { buckets } = await series({ bucket: 'month', folderId: ids.research! });
    expect(buckets[0]!.groups.map((g) => g.label)).toEqual(['alpha', 'Beta']);
    const report = await okBody(org.call('admin', 'getUsageReport', { query: { ...NOV, folderId: ids.research! } }));
    expect(
      buckets[0]!.groups.map(({ key, runCount, inputTokens, outputTokens, costUsd }) => ({
        projectId: key,
        runCount,
        inputTokens,
        outputTokens,
        costUsd,
      })),
    ).toEqual(
      report.projects.map(({ projectId, runCount, inputTokens, outputTokens, costUsd }) => ({
        projectId,
        runCount,
        inputTokens,
        outputTokens,
        costUsd,
      })),
    );
  });

  it('answers an empty window with no buckets, and a window of one instant with its bucket', async () => {
    expect(await series({ from: NOV.from, to: NOV.from })).toEqual({ buckets: [] });
    const instant = await series({ from: '2026-11-30T23:59:59.999Z', to: '2026-12-01T00:00:00Z' });
    expect(instant.buckets).toEqual([
      { start: '2026-11-30T00:00:00.000Z', groups: [group(ids.root!, 'root', 1, 1.25)] },
    ]);
  });

  it('refuses more than 400 buckets and more than 200 groups with series_too_large, naming the limit', async () => {
    const days = await org.call('admin', 'getUsageSeries', {
      query: { from: '2026-01-01T00:00:00Z', to: '2027-02-06T00:00:00Z' },
    });
    expect(expectError(days, 400, 'series_too_large').error.message).toMatch(/more than 400 day buckets/);
    // The same window by week fits.
    await okBody(
      org.call('admin', 'getUsageSeries', {
        query: { from: '2026-01-01T00:00:00Z', to: '2027-02-06T00:00:00Z', bucket: 'week' },
      }),
      200,
    );
    const crowded = await seedOrg(hub, 'crowded');
    const project = await okBody(crowded.call('owner', 'createProject', { body: { name: 'p' } }), 201);
    await ingest(
      crowded,
      'crowded.jsonl',
      Array.from({ length: 201 }, (_, i) =>
        runLine(project.id, `s-c${i}`, '2026-11-02T10:00:00Z', { model: `m-${i}` }),
      ),
    );
    const call = (groupBy: SeriesQuery['groupBy']) =>
      crowded.call('admin', 'getUsageSeries', { query: { ...NOV, groupBy } });
    expect(expectError(await call('model'), 400, 'series_too_large').error.message).toMatch(/more than 200 groups/);
    expect((await okBody(call('project'))).buckets[1]!.groups).toHaveLength(1);
  });

  it('checks the window and the folder like the report', async () => {
    const reversed = await org.call('admin', 'getUsageSeries', { query: { from: NOV.to, to: NOV.from } });
    expectError(reversed, 400, 'validation_failed');
    expectError(await org.api('admin', 'GET', '/usage/series?from=2026-11-01T00:00:00Z'), 400, 'validation_failed');
    expectError(
      await org.api('admin', 'GET', `/usage/series?from=${NOV.from}&to=${NOV.to}&bucket=year`),
      400,
      'validation_failed',
    );
    const foreign = await org.call('admin', 'getUsageSeries', { query: { ...NOV, folderId: 'no-such-folder' } });
    expectError(foreign, 404, 'folder_not_found');
    expectError(await org.call('member', 'getUsageSeries', { query: NOV }), 403, 'org_admin_required');
  });
});
