// The migration that makes a service account accountable for its runs and its tokens' runs, beside
// the member: runs its token started were counted for it as a member before, and the person levels
// gain the service account as a key, rebuilt from the raw runs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest, pendingMigrations, rollBack } from '../../src/db/migrate.js';
import { okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { rollupRows, runLine, writeJsonl } from '../support/usage-runs.js';

const SERVICE_ACCOUNT_SPEND = '20261203300000_spend_by_account_and_member';
let hub: TestHub;
let org: OrgFixture;
let account = '';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'service-account-spend-'));

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'acme');
  const project = (await okBody(org.call('owner', 'createProject', { body: { name: 'alpha' } }), 201)).id;
  account = (await okBody(org.call('admin', 'createServiceAccount', { body: { name: 'runtime' } }), 201)).id;
  const token = await okBody(
    org.call('admin', 'createApiToken', { body: { name: 'key', scopes: ['org:read'], serviceAccountId: account } }),
    201,
  );
  const lines = [
    runLine(project, 's-0', '2026-02-01T08:00:00.000Z', { initiatedBy: { type: 'apiToken', id: token.id } }),
    runLine(project, 's-1', '2026-02-01T09:00:00.000Z', { initiatedBy: { type: 'serviceAccount', id: account } }),
    runLine(project, 's-2', '2026-02-14T12:00:00.000Z', { initiatedBy: { type: 'member', imOpenId: 'acme-member' } }),
  ];
  await hub.services.usage.ingest(org.id, writeJsonl(tmp, 'runs.jsonl', lines));
});
afterAll(async () => {
  await hub.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const accountable = async () =>
  (await hub.services.db('runs').orderBy('at')).map((r) => [r.member_id, r.service_account_id ?? null]);

describe(`migration ${SERVICE_ACCOUNT_SPEND}`, () => {
  it('moves an account’s token runs off the members, rebuilds the person levels, keys alerts by member', async () => {
    const { db } = hub.services;
    const member = org.userIds.member;
    expect(await accountable()).toEqual([
      [null, account],
      [null, account],
      [member, null],
    ]);
    const ingested = await rollupRows(db);
    // A per-member budget with a member's alert and a shared one's.
    const budget = await okBody(
      org.call('admin', 'createBudget', {
        body: {
          name: 'each',
          scope: { type: 'organization' },
          perMember: true,
          metric: 'costUsd',
          amount: 1,
          period: 'month',
        },
      }),
      201,
    );
    const alert = {
      budget_id: budget.id,
      period_start: '2026-02-01T00:00:00.000Z',
      spent: 1,
      created_at: '2026-02-02',
    };
    await db('budget_alerts').insert([
      { ...alert, threshold: 50, member_id: member },
      { ...alert, threshold: 80, member_id: '' },
    ]);

    // Down: the account's token counts for it as a member again, and the levels lose the key.
    await rollBack(db, SERVICE_ACCOUNT_SPEND);
    expect(await pendingMigrations(db)).toEqual([SERVICE_ACCOUNT_SPEND]);
    expect(await db.schema.hasColumn('runs', 'service_account_id')).toBe(false);
    expect(await db.schema.hasColumn('usage_run_member_days', 'service_account_id')).toBe(false);
    expect((await db('runs').orderBy('at')).map((r) => r.member_id)).toEqual([account, null, member]);
    expect((await db('agent_sessions').orderBy('id')).map((s) => s.member_id)).toEqual([account, null, member]);
    // Budgets lose per-member allowances, and the alerts that named a member.
    expect(await db.schema.hasColumn('budgets', 'per_member')).toBe(false);
    expect((await db('budget_alerts').where('budget_id', budget.id)).map((a) => a.threshold)).toEqual([80]);

    // Up: what the migration builds is what the ingest kept.
    await migrateLatest(db);
    expect(await accountable()).toEqual([
      [null, account],
      [null, account],
      [member, null],
    ]);
    expect((await db('agent_sessions').orderBy('id')).map((s) => s.member_id)).toEqual([null, null, member]);
    expect(await rollupRows(db)).toEqual(ingested);
    const [shared] = await db('budgets').where('id', budget.id);
    expect(Boolean(shared.per_member)).toBe(false);
    expect((await db('budget_alerts').where('budget_id', budget.id)).map((a) => [a.threshold, a.member_id])).toEqual([
      [80, ''],
    ]);
  });
});
