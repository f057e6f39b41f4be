import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { runLine, writeJsonl } from '../support/usage-runs.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Budgets over HTTP, and the `budget.threshold` announcements an ingest makes, delivered to a
 * receiver on 127.0.0.1. Periods follow the hub's clock, which tests move, never wait on.
 */

let hub: TestHub;
let receiver: WebhookReceiver;
let counter = 0;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'budgets-'));

beforeAll(async () => {
  hub = await TestHub.start({ config: { outboundAllowPrivate: true } });
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await receiver?.stop();
  await hub?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const unique = (prefix: string) => `${prefix}-${++counter}`;
const base = { name: 'Monthly spend', scope: { type: 'organization' as const }, metric: 'costUsd' as const };

async function orgWithProject() {
  const org = await seedOrg(hub, unique('bud'));
  const project = await okBody(org.call('owner', 'createProject', { body: { name: 'P' } }), 201);
  return { org, projectId: project.id };
}

/** A file of `count` runs of the project at the clock's time, each costing `cost` (null: unknown). */
function runsFile(projectId: string, count: number, cost: number | null) {
  const at = hub.clock.now().toISOString();
  const lines = Array.from({ length: count }, (_, i) =>
    runLine(projectId, `${projectId}-s${i % 2}`, at, { costUsd: cost }),
  );
  return writeJsonl(tmp, `${unique('runs')}.jsonl`, lines);
}

const thresholdEvents = (org: OrgFixture) =>
  hub.services.db('audit_events').where({ organization_id: org.id, action: 'budget.threshold' }).orderBy('seq');
const budgetRows = async (org: OrgFixture) => hub.services.db('budgets').where({ organization_id: org.id });

describe('budgets', () => {
  it('creates a budget with the default thresholds and shows its live status', async () => {
    const { org, projectId } = await orgWithProject();
    const created = await okBody(
      org.call('admin', 'createBudget', { body: { ...base, amount: 10, period: 'month' } }),
      201,
    );
    expect(created).toMatchObject({ thresholds: [50, 80, 100], scope: { type: 'organization', id: null } });
    expect(created.status).toMatchObject({ spent: 0, percent: 0, state: 'ok', runsWithoutCost: 0 });
    await hub.services.usage.ingest(org.id, runsFile(projectId, 3, 2));
    await hub.services.usage.ingest(org.id, runsFile(projectId, 2, null));
    const [row] = (await okBody(org.call('admin', 'listBudgets'))).budgets;
    expect(row!.status).toMatchObject({ spent: 6, percent: 60, state: 'warning', runsWithoutCost: 2 });
    const periodStart = new Date(row!.status.periodStart);
    expect(periodStart.getUTCDate()).toBe(1);
    expect(periodStart.getUTCHours()).toBe(0);
  });

  it('counts a project or a folder subtree only, and tokens as input plus output', async () => {
    const { org, projectId } = await orgWithProject();
    const folder = await okBody(org.call('owner', 'createFolder', { body: { name: 'F' } }), 201);
    const inner = await okBody(org.call('owner', 'createFolder', { body: { name: 'G', parentId: folder.id } }), 201);
    const deep = await okBody(org.call('owner', 'createProject', { body: { name: 'Deep', folderId: inner.id } }), 201);
    await hub.services.usage.ingest(org.id, runsFile(projectId, 1, 1));
    await hub.services.usage.ingest(org.id, runsFile(deep.id, 2, 1));
    const body = { metric: 'tokens' as const, amount: 1000, period: 'day' as const };
    await okBody(
      org.call('owner', 'createBudget', { body: { ...body, name: 'F', scope: { type: 'folder', id: folder.id } } }),
      201,
    );
    await okBody(
      org.call('owner', 'createBudget', { body: { ...body, name: 'P', scope: { type: 'project', id: projectId } } }),
      201,
    );
    const { budgets } = await okBody(org.call('owner', 'listBudgets'));
    expect(budgets.map((b) => [b.name, b.status.spent])).toEqual([
      ['F', 220],
      ['P', 110],
    ]);
  });

  it('refuses bad input with the error envelope and stores nothing', async () => {
    const { org, projectId } = await orgWithProject();
    const other = await orgWithProject();
    const archived = await okBody(org.call('owner', 'createProject', { body: { name: 'Old' } }), 201);
    await okBody(org.call('owner', 'archiveProject', { path: { projectId: archived.id } }));
    const bad: Array<[unknown, number, string]> = [
      [{ ...base, amount: 0, period: 'day' }, 400, 'validation_failed'],
      [{ ...base, amount: -1, period: 'day' }, 400, 'validation_failed'],
      [{ ...base, amount: 1, period: 'day', thresholds: [0] }, 400, 'validation_failed'],
      [{ ...base, amount: 1, period: 'day', thresholds: [1001] }, 400, 'validation_failed'],
      [{ ...base, amount: 1, period: 'day', thresholds: [80, 50] }, 400, 'validation_failed'],
      [{ ...base, amount: 1, period: 'day', thresholds: [50, 50] }, 400, 'validation_failed'],
      [{ ...base, amount: 1, period: 'year' }, 400, 'validation_failed'],
      [{ ...base, amount: 1, period: 'day', scope: { type: 'organization', id: projectId } }, 400, 'validation_failed'],
      [{ ...base, amount: 1, period: 'day', scope: { type: 'project' } }, 400, 'validation_failed'],
      [
        { ...base, amount: 1, period: 'day', scope: { type: 'project', id: other.projectId } },
        404,
        'project_not_found',
      ],
      [{ ...base, amount: 1, period: 'day', scope: { type: 'project', id: archived.id } }, 409, 'project_archived'],
      [{ ...base, amount: 1, period: 'day', scope: { type: 'folder', id: 'nope' } }, 404, 'folder_not_found'],
    ];
    for (const [body, status, code] of bad) expectError(await org.api('owner', 'POST', '/budgets', body), status, code);
    expect(await budgetRows(org)).toEqual([]);
    expectError(await org.api('owner', 'PATCH', '/budgets/nope', { name: 'x' }), 404, 'budget_not_found');
    expectError(await other.org.api('owner', 'DELETE', '/budgets/nope'), 404, 'budget_not_found');
  });

  it('keeps at most 100 budgets per organization', async () => {
    const { org } = await orgWithProject();
    for (let i = 0; i < 100; i++) {
      await okBody(
        org.call('owner', 'createBudget', { body: { ...base, name: `B${i}`, amount: 1, period: 'day' } }),
        201,
      );
    }
    expectError(
      await org.api('owner', 'POST', '/budgets', { ...base, amount: 1, period: 'day' }),
      409,
      'capacity_exceeded',
    );
    expect(await budgetRows(org)).toHaveLength(100);
  });

  it('updates and deletes, each change audited', async () => {
    const { org } = await orgWithProject();
    const created = await okBody(
      org.call('owner', 'createBudget', { body: { ...base, amount: 5, period: 'week' } }),
      201,
    );
    const changed = await okBody(
      org.call('owner', 'updateBudget', { path: { budgetId: created.id }, body: { amount: 7, thresholds: [90] } }),
    );
    expect(changed).toMatchObject({ amount: 7, thresholds: [90], period: 'week' });
    expect(new Date(changed.status.periodStart).getUTCDay()).toBe(1);
    expectError(
      await org.api('owner', 'PATCH', `/budgets/${created.id}`, { thresholds: [90, 10] }),
      400,
      'validation_failed',
    );
    await okBody(org.call('owner', 'deleteBudget', { path: { budgetId: created.id } }), 204);
    expect(await budgetRows(org)).toEqual([]);
    const actions = await hub.services
      .db('audit_events')
      .where({ organization_id: org.id, target_type: 'budget' })
      .orderBy('seq')
      .pluck('action');
    expect(actions).toEqual(['createBudget', 'updateBudget', 'deleteBudget']);
  });
});

describe('budget alerts', () => {
  it('announces 50, 80 and 100 % once each: three audit events and three signed deliveries', async () => {
    hub.clock.set(new Date());
    const { org, projectId } = await orgWithProject();
    const hook = await okBody(
      org.call('owner', 'createWebhook', { body: { url: receiver.url, events: ['budget.threshold'] } }),
      201,
    );
    const budget = await okBody(
      org.call('owner', 'createBudget', { body: { ...base, amount: 10, period: 'month' } }),
      201,
    );
    const already = receiver.received.length;

    await hub.services.usage.ingest(org.id, runsFile(projectId, 6, 1)); // 60 %
    expect(await thresholdEvents(org)).toHaveLength(1);
    const again = runsFile(projectId, 5, 1);
    await hub.services.usage.ingest(org.id, again); // 110 %: 80 and 100
    await hub.services.usage.ingest(org.id, again); // still over: nothing new
    const events = await thresholdEvents(org);
    expect(events).toHaveLength(3);
    for (const event of events) {
      expect(event).toMatchObject({ actor_type: 'system', actor_id: null, actor_display_name: 'system' });
      expect(event).toMatchObject({ target_type: 'budget', target_id: budget.id });
    }
    expect(events.map((e) => JSON.parse(e.changes).after.threshold)).toEqual([50, 80, 100]);
    expect(JSON.parse(events[0].changes)).toEqual({
      before: null,
      after: { budgetId: budget.id, threshold: 50, spent: 6, amount: 10, periodStart: budget.status.periodStart },
    });

    while ((await hub.services.webhookDispatcher.runOnce()) > 0);
    const received = (await receiver.waitFor(already + 3)).slice(already);
    expect(received).toHaveLength(3);
    const secrets = await hub.services.webhooks.signingSecrets({ id: hook.id, organization_id: org.id });
    const verified = received.map(({ body, headers }) =>
      new Webhook(secrets[0]!).verify(body, headers as Record<string, string>),
    ) as Array<{ type: string; data: { changes: { after: { threshold: number } } } }>;
    expect(verified.map((p) => p.type)).toEqual(['budget.threshold', 'budget.threshold', 'budget.threshold']);
    expect(verified.map((p) => p.data.changes.after.threshold).sort((a, b) => a - b)).toEqual([50, 80, 100]);
  });

  it('starts a new period afresh', async () => {
    hub.clock.set(new Date('2026-03-10T12:00:00Z'));
    const { org, projectId } = await orgWithProject();
    await okBody(
      org.call('owner', 'createBudget', { body: { ...base, amount: 1, period: 'day', thresholds: [100] } }),
      201,
    );
    await hub.services.usage.ingest(org.id, runsFile(projectId, 1, 1));
    await hub.services.usage.ingest(org.id, runsFile(projectId, 1, 1));
    expect(await thresholdEvents(org)).toHaveLength(1);
    hub.clock.set(new Date('2026-03-11T00:30:00Z'));
    await hub.services.usage.ingest(org.id, runsFile(projectId, 1, 1));
    const events = await thresholdEvents(org);
    expect(events.map((e) => JSON.parse(e.changes).after.periodStart)).toEqual([
      '2026-03-10T00:00:00.000Z',
      '2026-03-11T00:00:00.000Z',
    ]);
    hub.clock.set(new Date());
  });

  it('two ingests racing announce each threshold once, and the one they cross together too', async () => {
    hub.clock.set(new Date());
    const { org, projectId } = await orgWithProject();
    await okBody(org.call('owner', 'createBudget', { body: { ...base, amount: 10, period: 'month' } }), 201);
    const [a, b] = [runsFile(projectId, 3, 1), runsFile(projectId, 3, 1)];
    await Promise.all([hub.services.usage.ingest(org.id, a), hub.services.usage.ingest(org.id, b)]);
    // 30 % each, 60 % together: the second to lock the budgets sees the first's runs.
    expect((await thresholdEvents(org)).map((e) => JSON.parse(e.changes).after.threshold)).toEqual([50]);
    await Promise.all([hub.services.usage.ingest(org.id, a), hub.services.usage.ingest(org.id, b)]);
    expect((await thresholdEvents(org)).map((e) => JSON.parse(e.changes).after.threshold)).toEqual([50, 80, 100]);
  });
});
