// The migration that drops the references on the copied organization and project of runs and
// facts: existing rows survive it both ways, and what stays enforced is enforced.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../../src/db/connect.js';
import { migrateLatest, pendingMigrations, rollBack } from '../../src/db/migrate.js';
import { okBody } from '../support/assertions.js';
import { seedOrg } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { runLine, writeJsonl } from '../support/usage-runs.js';

const USAGE_WRITE_PATH = '20261124000000_usage_write_path';
/** A later migration that adds columns to runs: undone first, as a database that old never had them. */
const RUN_AGENT_KEYS = '20261201400000_run_agent_keys';
const RUN_INITIATORS = '20261202100000_run_initiators';
const SERVICE_ACCOUNT_SPEND = '20261203300000_spend_by_account_and_member';
let hub: TestHub;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'usage-write-path-'));
let projectId = '';

beforeAll(async () => {
  hub = await TestHub.start();
  const org = await seedOrg(hub, 'acme');
  projectId = (await okBody(org.call('owner', 'createProject', { body: { name: 'Alpha' } }))).id;
  const acme = await hub.services.organizations.findBySlug('acme');
  const facts = [
    { kind: 'model', quantity: 120, unit: 'tokens', costUsd: 0.25 },
    { kind: 'tool', quantity: 2, unit: 'calls', costUsd: null },
  ];
  const lines = Array.from({ length: 30 }, (_, i) =>
    runLine(projectId, `s-${i % 3}`, new Date(Date.UTC(2026, 0, 1, i)).toISOString(), { facts }),
  );
  await hub.services.usage.ingest(acme!.id, writeJsonl(tmp, 'runs.jsonl', lines));
});
afterAll(async () => {
  await hub.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const rows = async () => ({
  runs: await hub.services.db('runs').orderBy('id'),
  facts: await hub.services.db('run_facts').orderBy(['run_id', 'ordinal']),
});

/** The columns of `table` that refer to another table. */
async function referencing(table: string): Promise<string[]> {
  const db = hub.services.db;
  if (isPostgres(db)) {
    const result = await db.raw(
      `select kcu.column_name as name from information_schema.table_constraints tc
         join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name
       where tc.table_name = ? and tc.constraint_type = 'FOREIGN KEY'`,
      [table],
    );
    return (result.rows as { name: string }[]).map((r) => r.name).sort();
  }
  return ((await db.raw(`pragma foreign_key_list(${table})`)) as { from: string }[]).map((r) => r.from).sort();
}

/** On PostgreSQL, the collation of runs.id, runs.project_id and agent_sessions.id (null: the default). */
async function collations(): Promise<(string | null)[]> {
  const result = await hub.services.db.raw(
    `select table_name || '.' || column_name as name, collation_name from information_schema.columns
     where (table_name, column_name) in (('runs', 'id'), ('runs', 'project_id'), ('agent_sessions', 'id'))
     order by name`,
  );
  return (result.rows as { collation_name: string | null }[]).map((r) => r.collation_name);
}

describe(`migration ${USAGE_WRITE_PATH}`, () => {
  it('keeps every run and fact, down and up again', async () => {
    const before = await rows();
    expect(before.runs).toHaveLength(30);
    expect(before.facts).toHaveLength(60);
    expect(await referencing('runs')).toEqual(['session_id']);
    expect(await referencing('run_facts')).toEqual(['run_id']);

    // The later migrations that reshape runs first, newest first.
    await rollBack(hub.services.db, SERVICE_ACCOUNT_SPEND);
    await rollBack(hub.services.db, RUN_INITIATORS);
    await rollBack(hub.services.db, RUN_AGENT_KEYS);
    const older = await rows();
    await rollBack(hub.services.db, USAGE_WRITE_PATH);
    expect(await pendingMigrations(hub.services.db)).toEqual([
      USAGE_WRITE_PATH,
      RUN_AGENT_KEYS,
      RUN_INITIATORS,
      SERVICE_ACCOUNT_SPEND,
    ]);
    expect(await rows()).toEqual(older);
    expect(await referencing('runs')).toEqual(['organization_id', 'project_id', 'session_id']);
    expect(await referencing('run_facts')).toEqual(['organization_id', 'project_id', 'run_id']);

    await migrateLatest(hub.services.db);
    expect(await rows()).toEqual(before);
    expect(await referencing('runs')).toEqual(['session_id']);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'compares the keys ingest writes bytewise on PostgreSQL, and back',
    async () => {
      expect(await collations()).toEqual(['C', 'C', 'C']);
      await rollBack(hub.services.db, USAGE_WRITE_PATH);
      expect(await collations()).toEqual([null, null, null]);
      await migrateLatest(hub.services.db);
      expect(await collations()).toEqual(['C', 'C', 'C']);
    },
  );

  it('still refuses a run without its session and a fact without its run', async () => {
    const [run] = (await rows()).runs;
    await expect(
      hub.services.db('runs').insert({ ...run, id: 'r-orphan', session_id: 'no-such-session' }),
    ).rejects.toThrow(/foreign key/i);
    const [fact] = (await rows()).facts;
    await expect(hub.services.db('run_facts').insert({ ...fact, run_id: 'no-such-run' })).rejects.toThrow(
      /foreign key/i,
    );
    expect((await rows()).runs).toHaveLength(30);
  });

  it("reaches a session's runs and their facts when the session is deleted", async () => {
    await hub.services.db('agent_sessions').where({ id: 's-0' }).delete();
    const left = await rows();
    expect(left.runs).toHaveLength(20);
    expect(left.facts).toHaveLength(40);
    expect(left.runs.every((r: { session_id: string }) => r.session_id !== 's-0')).toBe(true);
  });
});
