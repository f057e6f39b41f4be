import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordChange } from '../../src/audit/trail.js';
import { withAuditScope } from '../../src/audit/scope.js';
import { loadConfig } from '../../src/config/config.js';
import { configError, errorBody, expectError, okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Webhook endpoints over HTTP, and their deliveries sent by the dispatcher one batch at a time
 * (`runOnce`), to a receiver on 127.0.0.1 (HUB_OUTBOUND_ALLOW_PRIVATE on). Retries are made due
 * by moving the hub's clock, never by waiting.
 */

let hub: TestHub;
let receiver: WebhookReceiver;
let counter = 0;

beforeAll(async () => {
  hub = await TestHub.start({ config: { outboundAllowPrivate: true } });
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await receiver?.stop();
  await hub?.stop();
});

const unique = (prefix: string) => `${prefix}-${++counter}`;
const dispatch = () => hub.services.webhookDispatcher.runOnce();
/**
 * Receivers check `webhook-timestamp` against their own clock: tests that verify a signature put
 * the hub's clock back to the real time first, after tests that moved it on to make retries due.
 */
const realTime = () => hub.clock.set(new Date());

async function endpoint(org: OrgFixture, events: string[], url = receiver.url) {
  return okBody(org.call('owner', 'createWebhook', { body: { url, events, description: 'tests' } }), 201);
}

async function createTeam(org: OrgFixture) {
  const slug = unique('team');
  return okBody(org.call('admin', 'createTeam', { body: { slug, name: `Team ${slug}` } }), 201);
}

const deliveriesOf = async (org: OrgFixture, webhookId: string) =>
  (await okBody(org.call('owner', 'listWebhookDeliveries', { path: { webhookId } }))).deliveries;

describe('webhook endpoints', () => {
  it('creates an endpoint and shows its secret once; the secret is stored only sealed and never audited', async () => {
    const org = await seedOrg(hub, unique('wh'));
    const created = await endpoint(org, ['createTeam']);
    expect(created).toMatchObject({
      url: receiver.url,
      description: 'tests',
      events: ['createTeam'],
      status: 'active',
      disabledReason: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const list = await okBody(org.call('admin', 'listWebhooks'));
    const { secret: _shownOnce, ...row } = created;
    expect(list.webhooks).toEqual([row]);
    const { db } = hub.services;
    const stored = JSON.stringify([
      await db('webhooks').select('*'),
      await db('webhook_secrets').select('*'),
      await db('audit_events').where({ organization_id: org.id }).select('*'),
    ]);
    expect(stored).not.toContain(created.secret.slice('whsec_'.length));
    const [event] = await db('audit_events').where({ organization_id: org.id, action: 'createWebhook' });
    expect(event).toMatchObject({ target_type: 'webhook', target_id: created.id });
  });

  it('is for org admins only, and refuses unknown events', async () => {
    const org = await seedOrg(hub, unique('wh'));
    expectError(await org.call('member', 'listWebhooks'), 403, 'org_admin_required');
    expectError(
      await org.call('member', 'createWebhook', { body: { url: receiver.url, events: ['*'] } }),
      403,
      'org_admin_required',
    );
    for (const event of ['listTeams', 'noSuchOperation', 'hub', '']) {
      const res = await org.call('owner', 'createWebhook', { body: { url: receiver.url, events: [event] } });
      expectError(res, 400, 'validation_failed');
    }
    expect(await hub.services.db('webhooks').where({ organization_id: org.id })).toEqual([]);
  });

  it('updates, disables, enables and deletes an endpoint, each change audited', async () => {
    const org = await seedOrg(hub, unique('wh'));
    const { id: webhookId } = await endpoint(org, ['createTeam']);
    const updated = await okBody(
      org.call('owner', 'updateWebhook', { path: { webhookId }, body: { events: ['*'], description: 'all' } }),
    );
    expect(updated).toMatchObject({ events: ['*'], description: 'all', status: 'active' });
    const disabled = await okBody(
      org.call('owner', 'updateWebhook', { path: { webhookId }, body: { disabled: true } }),
    );
    expect(disabled).toMatchObject({ status: 'disabled', disabledReason: 'disabled by an admin' });
    const enabled = await okBody(
      org.call('owner', 'updateWebhook', { path: { webhookId }, body: { disabled: false } }),
    );
    expect(enabled).toMatchObject({ status: 'active', disabledReason: null });
    expect((await org.call('owner', 'deleteWebhook', { path: { webhookId } })).status).toBe(204);
    expectError(await org.call('owner', 'deleteWebhook', { path: { webhookId } }), 404, 'webhook_not_found');
    const actions = await hub.services
      .db('audit_events')
      .where({ organization_id: org.id, target_type: 'webhook' })
      .orderBy('seq')
      .pluck('action');
    expect(actions).toEqual(['createWebhook', 'updateWebhook', 'updateWebhook', 'updateWebhook', 'deleteWebhook']);
  });
});

describe('deliveries', () => {
  it('delivers one signed delivery per subscribed change, and nothing for other changes', async () => {
    realTime();
    const org = await seedOrg(hub, unique('wh'));
    const { id: webhookId, secret } = await endpoint(org, ['createTeam']);
    const start = receiver.received.length;
    const team = await createTeam(org);
    await okBody(org.call('owner', 'updateOrgSettings', { body: { membersCanCreateProjects: true } }));
    expect(await dispatch()).toBe(1);
    const [got] = receiver.received.slice(start);
    expect(receiver.received.length).toBe(start + 1);
    const payload = new Webhook(secret).verify(got!.body, got!.headers as Record<string, string>) as {
      type: string;
      timestamp: string;
      data: { action: string; target: { id: string }; changes: { after: { id: string } } };
    };
    expect(payload.type).toBe('createTeam');
    expect(payload.data).toMatchObject({ action: 'createTeam', target: { type: 'team', id: team.id } });
    const [delivery] = await deliveriesOf(org, webhookId);
    expect(delivery).toMatchObject({
      event: 'createTeam',
      status: 'delivered',
      attempt: 1,
      statusCode: 200,
      answer: 'ok',
      messageId: got!.headers['webhook-id'],
      nextAttemptAt: null,
    });
  });

  it('sends no endpoint its own creation (its secret not yet stored); the others hear of it', async () => {
    const org = await seedOrg(hub, unique('wh'));
    const first = await endpoint(org, ['*']);
    expect(await deliveriesOf(org, first.id)).toEqual([]);
    const second = await endpoint(org, ['*', 'createWebhook']);
    expect(await deliveriesOf(org, second.id)).toEqual([]);
    const third = await endpoint(org, ['createWebhook']);
    expect(await deliveriesOf(org, third.id)).toEqual([]);
    // The earlier endpoints each hear of the ones made after them, and nothing of themselves.
    const told = async (webhookId: string) =>
      (await hub.services.db('webhook_deliveries').where({ webhook_id: webhookId }).pluck('payload')).map(
        (payload: string) => (JSON.parse(payload) as { data: { target: { id: string } } }).data.target.id,
      );
    expect((await told(first.id)).sort()).toEqual([second.id, third.id].sort());
    expect(await told(second.id)).toEqual([third.id]);
    expect(await told(third.id)).toEqual([]);
    // Sent now, so that the later tests' batches hold only their own deliveries.
    expect(await dispatch()).toBe(3);
  });

  it('lists the events of one millisecond, and their deliveries, in the order they were written', async () => {
    const org = await seedOrg(hub, unique('wh'));
    const { id: webhookId } = await endpoint(org, ['createTeam']);
    // The hub's clock stands still: every change below is stamped with the same millisecond.
    const teams = [await createTeam(org), await createTeam(org), await createTeam(org)];
    const events = (await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'createTeam' } }))).events;
    expect(new Set(events.map((e) => e.at)).size).toBe(1);
    expect(events.map((e) => e.target.id)).toEqual(teams.map((t) => t.id).reverse());
    const deliveries = await deliveriesOf(org, webhookId);
    expect(new Set(deliveries.map((d) => d.createdAt)).size).toBe(1);
    const payloads = await hub.services.db('webhook_deliveries').whereIn(
      'id',
      deliveries.map((d) => d.id),
    );
    const teamOf = (id: string) =>
      (JSON.parse(payloads.find((p) => p.id === id).payload) as { data: { target: { id: string } } }).data.target.id;
    expect(deliveries.map((d) => teamOf(d.id))).toEqual(teams.map((t) => t.id).reverse());
    // Sent now, so that the later tests' batches hold only their own deliveries.
    expect(await dispatch()).toBe(3);
  });

  it('writes no delivery for a change that rolled back', async () => {
    const org = await seedOrg(hub, unique('wh'));
    await endpoint(org, ['hub.*']);
    const { db, uow } = hub.services;
    const before = await db('webhook_deliveries').where({ organization_id: org.id }).count({ n: '*' });
    const scope = { actor: { type: 'console', id: null, displayName: 'hub console' }, at: new Date() } as const;
    const failing = withAuditScope({ ...scope, action: 'hub.org.update', requestId: null }, () =>
      uow.run(async (trx) => {
        await recordChange(trx, {
          organizationId: org.id,
          target: { type: 'org', id: org.id, label: null },
          before: 1,
          after: 2,
        });
        throw new Error('the change fails after its event was written');
      }),
    );
    await expect(failing).rejects.toThrow('the change fails');
    expect(await db('webhook_deliveries').where({ organization_id: org.id }).count({ n: '*' })).toEqual(before);
  });

  it('retries on the schedule with the same webhook-id, then fails', async () => {
    const org = await seedOrg(hub, unique('wh'));
    const { id: webhookId } = await endpoint(org, ['createTeam']);
    receiver.status = 503;
    receiver.answer = 'x'.repeat(3000);
    try {
      const start = receiver.received.length;
      await createTeam(org);
      const delays = hub.services.config.webhookDelivery.retryDelaysMs;
      expect(await dispatch()).toBe(1);
      for (const delay of delays) {
        hub.clock.advance(delay - 1);
        expect(await dispatch()).toBe(0);
        hub.clock.advance(1);
        expect(await dispatch()).toBe(1);
      }
      const attempts = receiver.received.slice(start);
      expect(attempts).toHaveLength(delays.length + 1);
      expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
      const [delivery] = await deliveriesOf(org, webhookId);
      expect(delivery).toMatchObject({ status: 'failed', attempt: delays.length + 1, statusCode: 503 });
      expect(delivery!.answer).toHaveLength(1024);
      hub.clock.advance(delays.at(-1)!);
      expect(await dispatch()).toBe(0);
    } finally {
      receiver.status = 200;
      receiver.answer = 'ok';
    }
  });

  it('disables the endpoint when its receiver answers 410 Gone', async () => {
    const org = await seedOrg(hub, unique('wh'));
    const { id: webhookId } = await endpoint(org, ['createTeam']);
    receiver.status = 410;
    try {
      await createTeam(org);
      expect(await dispatch()).toBe(1);
    } finally {
      receiver.status = 200;
    }
    const [row] = (await okBody(org.call('owner', 'listWebhooks'))).webhooks;
    expect(row).toMatchObject({ id: webhookId, status: 'disabled', disabledReason: 'the receiver answered 410 Gone' });
    expect((await deliveriesOf(org, webhookId))[0]).toMatchObject({ status: 'failed', statusCode: 410 });
    const [event] = await hub.services
      .db('audit_events')
      .where({ organization_id: org.id, action: 'webhook.disabled' });
    expect(event).toMatchObject({ actor_type: 'system', target_id: webhookId });
    // A disabled endpoint is told of nothing.
    await createTeam(org);
    expect(await dispatch()).toBe(0);
  });

  it('sends a test ping, pages the deliveries, and redelivers with the same webhook-id', async () => {
    realTime();
    const org = await seedOrg(hub, unique('wh'));
    const { id: webhookId, secret } = await endpoint(org, ['createTeam']);
    const start = receiver.received.length;
    const ping = await okBody(org.call('owner', 'testWebhook', { path: { webhookId } }), 201);
    expect(ping).toMatchObject({ event: 'ping', status: 'pending', attempt: 0, statusCode: null });
    expect(await dispatch()).toBe(1);
    const sent = receiver.received[start]!;
    expect(new Webhook(secret).verify(sent.body, sent.headers as Record<string, string>)).toMatchObject({
      type: 'ping',
      data: { webhookId },
    });
    const again = await okBody(
      org.call('owner', 'redeliverWebhookDelivery', { path: { webhookId, deliveryId: ping.id } }),
      201,
    );
    expect(again).toMatchObject({ messageId: ping.messageId, status: 'pending' });
    expect(again.id).not.toBe(ping.id);
    expect(await dispatch()).toBe(1);
    expect(receiver.received[start + 1]!.headers['webhook-id']).toBe(ping.messageId);
    const first = await okBody(
      org.call('owner', 'listWebhookDeliveries', { path: { webhookId }, query: { limit: 1 } }),
    );
    expect(first.deliveries).toHaveLength(1);
    const rest = await okBody(
      org.call('owner', 'listWebhookDeliveries', {
        path: { webhookId },
        query: { limit: 1, cursor: first.nextCursor! },
      }),
    );
    expect([...first.deliveries, ...rest.deliveries].map((d) => d.id).sort()).toEqual([ping.id, again.id].sort());
    expect(rest.nextCursor).toBeNull();
    expectError(
      await org.call('owner', 'redeliverWebhookDelivery', { path: { webhookId, deliveryId: 'nope' } }),
      404,
      'delivery_not_found',
    );
  });

  it('signs with the old and the new secret for a day after a rotation', async () => {
    realTime();
    const org = await seedOrg(hub, unique('wh'));
    const { id: webhookId, secret: old } = await endpoint(org, ['createTeam']);
    const rotated = await okBody(org.call('owner', 'rotateWebhookSecret', { path: { webhookId } }));
    expect(rotated.secret).not.toBe(old);
    const start = receiver.received.length;
    await createTeam(org);
    expect(await dispatch()).toBe(1);
    const sent = receiver.received[start]!;
    expect(String(sent.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [old, rotated.secret]) {
      expect(() => new Webhook(secret).verify(sent.body, sent.headers as Record<string, string>)).not.toThrow();
    }
    hub.clock.advance(24 * 3_600_000 + 1);
    await createTeam(org);
    expect(await dispatch()).toBe(1);
    expect(String(receiver.received[start + 1]!.headers['webhook-signature']).split(' ')).toHaveLength(1);
  });

  it('shows the deliveries and the queue on /metrics', async () => {
    const org = await seedOrg(hub, unique('wh'));
    await endpoint(org, ['createTeam']);
    await createTeam(org);
    const text = (await hub.request('GET', '/metrics')).text;
    expect(text).toMatch(/^hub_webhook_queue_depth [1-9]/m);
    expect(text).toMatch(/^hub_webhook_oldest_pending_age_seconds \d/m);
    await dispatch();
    expect((await hub.request('GET', '/metrics')).text).toMatch(
      /^hub_webhook_deliveries_total\{outcome="delivered"\} [1-9]/m,
    );
  });
});

describe('URL safety at save time (HUB_OUTBOUND_ALLOW_PRIVATE off)', () => {
  let strict: TestHub;
  beforeAll(async () => {
    strict = await TestHub.start();
  });
  afterAll(async () => {
    await strict?.stop();
  });

  it.each([
    'http://93.184.216.34/hook',
    'https://127.0.0.1/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://2130706433/hook',
    'https://10.0.0.1/hook',
    'https://169.254.169.254/latest',
    'https://localhost/hook',
  ])('refuses %s with 422 url_not_allowed naming the setting, and saves nothing', async (url) => {
    const org = await seedOrg(strict, unique('wh'));
    const res = await org.call('owner', 'createWebhook', { body: { url, events: ['*'] } });
    expectError(res, 422, 'url_not_allowed');
    expect(errorBody(res).error.message).toContain('HUB_OUTBOUND_ALLOW_PRIVATE=1');
    expect(await strict.services.db('webhooks').where({ organization_id: org.id })).toEqual([]);
  });

  it('refuses a refused URL in an update and keeps the endpoint as it was', async () => {
    const org = await seedOrg(strict, unique('wh'));
    // Saved straight through the store: no public receiver is ever called or resolved in tests.
    const at = strict.clock.now().toISOString();
    await strict.services.db('webhooks').insert({
      id: 'wh-public',
      organization_id: org.id,
      url: 'https://93.184.216.34/hook',
      description: '',
      events: '["*"]',
      status: 'active',
      disabled_reason: null,
      secret_version: 1,
      created_at: at,
      updated_at: at,
    });
    const res = await org.call('owner', 'updateWebhook', {
      path: { webhookId: 'wh-public' },
      body: { url: 'https://192.168.1.1/' },
    });
    expectError(res, 422, 'url_not_allowed');
    const [row] = await strict.services.db('webhooks').where({ id: 'wh-public' });
    expect(row).toMatchObject({ url: 'https://93.184.216.34/hook', updated_at: at });
  });
});

describe('configuration', () => {
  it('takes the decided schedule by default; a shorter one, a lease and a poll interval from the environment', () => {
    expect(loadConfig({}).webhookDelivery).toEqual({
      retryDelaysMs: [30_000, 300_000, 1_800_000, 7_200_000, 28_800_000, 86_400_000],
      leaseMs: 120_000,
      pollMs: 1_000,
    });
    const env = { HUB_WEBHOOK_RETRY_DELAYS_MS: '100, 200', HUB_WEBHOOK_LEASE_MS: '1500', HUB_WEBHOOK_POLL_MS: '50' };
    expect(loadConfig(env).webhookDelivery).toEqual({ retryDelaysMs: [100, 200], leaseMs: 1500, pollMs: 50 });
    for (const raw of ['1,x', '0', '-5', '1,,2']) {
      expect(configError({ HUB_WEBHOOK_RETRY_DELAYS_MS: raw }).message).toContain('HUB_WEBHOOK_RETRY_DELAYS_MS');
    }
    expect(configError({ HUB_WEBHOOK_LEASE_MS: '5' }).message).toContain('HUB_WEBHOOK_LEASE_MS');
  });
});
