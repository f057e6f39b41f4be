// The migration that gives each run its own provider, role and model: the runs stored before it
// take their session's, and the levels keyed by the agent are rebuilt from the runs' own columns.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest, pendingMigrations, rollBack } from '../../src/db/migrate.js';
import { okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { rollupRows, runLine, writeJsonl } from '../support/usage-runs.js';

const RUN_AGENT_KEYS = '20261201400000_run_agent_keys';
let hub: TestHub;
let org: OrgFixture;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'run-agent-keys-'));

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'acme');
  const project = (await okBody(org.call('owner', 'createProject', { body: { name: 'alpha' } }), 201)).id;
  const facts = [{ kind: 'capability', capabilityId: 'search', quantity: 2, unit: 'calls', costUsd: 0.25 }];
  // Session s-0 switches agent between its runs; s-1 keeps one.
  const lines = [
    runLine(project, 's-0', '2026-02-01T08:00:00.000Z', { model: 'haiku', facts }),
    runLine(project, 's-0', '2026-02-01T09:00:00.000Z', { model: 'gpt', provider: 'openai', roleId: 'reviewer' }),
    runLine(project, 's-1', '2026-02-14T12:00:00.000Z', { model: 'opus', costUsd: 1.2345678, facts }),
  ];
  await hub.services.usage.ingest(org.id, writeJsonl(tmp, 'runs.jsonl', lines));
});
afterAll(async () => {
  await hub.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const levels = () => rollupRows(hub.services.db);
/** The runs per day and agent, the count as a number (PostgreSQL answers a bigint as text). */
const agentDays = async () =>
  (
    await hub.services
      .db('usage_run_agent_days')
      .orderBy(['provider', 'model'])
      .select('provider', 'role_id', 'model', 'run_count')
  ).map((row) => ({ ...row, run_count: Number(row.run_count) }));
const runAgents = () => hub.services.db('runs').orderBy('at').select('session_id', 'provider', 'role_id', 'model');

describe(`migration ${RUN_AGENT_KEYS}`, () => {
  it('copies each session’s agent onto its runs and rebuilds the levels keyed by it, down and up again', async () => {
    const { db } = hub.services;
    expect(await runAgents()).toEqual([
      { session_id: 's-0', provider: 'anthropic', role_id: 'coder', model: 'haiku' },
      { session_id: 's-0', provider: 'openai', role_id: 'reviewer', model: 'gpt' },
      { session_id: 's-1', provider: 'anthropic', role_id: 'coder', model: 'opus' },
    ]);
    expect(await agentDays()).toHaveLength(3);

    // Down: the runs lose their columns, and the levels are keyed by the session's agent again.
    await rollBack(db, RUN_AGENT_KEYS);
    expect(await pendingMigrations(db)).toEqual([RUN_AGENT_KEYS]);
    expect(await db.schema.hasColumn('runs', 'model')).toBe(false);
    const bySession = [
      { provider: 'anthropic', role_id: 'coder', model: 'haiku', run_count: 2 },
      { provider: 'anthropic', role_id: 'coder', model: 'opus', run_count: 1 },
    ];
    expect(await agentDays()).toEqual(bySession);

    // Up: each run stored before takes its session's agent, and the levels sum them so.
    await migrateLatest(db);
    expect(await runAgents()).toEqual([
      { session_id: 's-0', provider: 'anthropic', role_id: 'coder', model: 'haiku' },
      { session_id: 's-0', provider: 'anthropic', role_id: 'coder', model: 'haiku' },
      { session_id: 's-1', provider: 'anthropic', role_id: 'coder', model: 'opus' },
    ]);
    expect(await agentDays()).toEqual(bySession);
    // What the migration built is what a rebuild from the raw rows builds.
    const migrated = await levels();
    expect(migrated.usage_fact_days).toHaveLength(2);
    await hub.services.usage.rebuildRollups(org.id);
    expect(await levels()).toEqual(migrated);
  });
});
