import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest, pendingMigrations, rollBack } from '../../src/db/migrate.js';
import { okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { rollupRows, runLine, tableRows, writeJsonl } from '../support/usage-runs.js';

const DAILY_ROLLUPS = '20261128090000_usage_rollups';
const NARROW_ROLLUPS = '20261128120000_usage_narrow_rollups';
const DAILY = ['usage_run_days', 'usage_fact_days'];
const NARROW = ['usage_run_months', 'usage_run_agent_days', 'usage_fact_months', 'usage_fact_org_months'];
let hub: TestHub;
let org: OrgFixture;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rollup-levels-'));

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'acme');
  const project = (await okBody(org.call('owner', 'createProject', { body: { name: 'alpha' } }), 201)).id;
  const facts = [
    { kind: 'capability', capabilityId: 'search', quantity: 2, unit: 'calls', costUsd: 0.25 },
    { kind: 'tool', quantity: 3, unit: 'calls', costUsd: null },
  ];
  // A run without a cost, and costs with more digits than a micro-dollar: the rounding is the migrations' too.
  const costs = [0.1234567, null, 2.5];
  const lines = ['2026-01-31T23:00:00.000Z', '2026-02-01T08:00:00.000Z', '2026-02-14T12:00:00.000Z'].map((at, i) =>
    runLine(project, `s-${i % 2}`, at, { model: `model-${i % 2}`, costUsd: costs[i], facts }),
  );
  await hub.services.usage.ingest(org.id, writeJsonl(tmp, 'runs.jsonl', lines));
});
afterAll(async () => {
  await hub.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const ordered = (table: string) => tableRows(hub.services.db, table);

describe('the rollup migrations', () => {
  it('build, from the runs and facts already stored, the same rows the ingest kept', async () => {
    const { db } = hub.services;
    const kept = await rollupRows(hub.services.db);
    expect(kept.usage_run_days).toHaveLength(3);
    expect(kept.usage_fact_days).toHaveLength(6);

    await rollBack(db, NARROW_ROLLUPS);
    await rollBack(db, DAILY_ROLLUPS);
    expect(await pendingMigrations(db)).toEqual([DAILY_ROLLUPS, NARROW_ROLLUPS]);
    for (const table of [...DAILY, ...NARROW]) expect(await db.schema.hasTable(table)).toBe(false);

    await migrateLatest(db);
    expect(await rollupRows(hub.services.db)).toEqual(kept);
  });

  it('of the narrow levels builds them from the daily ones, and goes down and up again', async () => {
    const { db } = hub.services;
    const kept = Object.fromEntries(await Promise.all(NARROW.map(async (t) => [t, await ordered(t)] as const)));
    expect(kept.usage_run_months).toHaveLength(2);
    const report = await okBody(org.call('owner', 'getUsageReport', { query: { from: '2026-01-01T00:00:00Z' } }));

    await rollBack(db, NARROW_ROLLUPS);
    expect(await pendingMigrations(db)).toEqual([NARROW_ROLLUPS]);
    for (const table of NARROW) expect(await db.schema.hasTable(table)).toBe(false);
    expect(await ordered('usage_run_days')).toHaveLength(3);

    await migrateLatest(db);
    for (const table of NARROW) expect(await ordered(table)).toEqual(kept[table]);
    expect(await okBody(org.call('owner', 'getUsageReport', { query: { from: '2026-01-01T00:00:00Z' } }))).toEqual(
      report,
    );
  });
});
