import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { cliEnv, runHub } from '../support/hub-cli.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { Instance, logIn, request, SHARED_KEYS, sleep } from './instances.js';

/**
 * Webhook delivery by real `hub serve` processes, to a receiver on 127.0.0.1
 * (HUB_OUTBOUND_ALLOW_PRIVATE=1): a delivery outlives `kill -9` of the instance sending it and a
 * restart, retries reach a failing receiver, and on PostgreSQL two instances never claim the same
 * delivery. The retry schedule and the lease are shortened through the environment, so nothing
 * waits real minutes; every wait is a poll bounded by the test's timeout, never a measured time.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const FAST = {
  HUB_OUTBOUND_ALLOW_PRIVATE: '1',
  HUB_WEBHOOK_LEASE_MS: '1500',
  HUB_WEBHOOK_POLL_MS: '50',
  HUB_WEBHOOK_RETRY_DELAYS_MS: '200,200',
};

let database: TestDatabase;
let receiver: WebhookReceiver;
const running: Instance[] = [];
let counter = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  // hub commands other than serve and migrate never create a database: make it first.
  const migrated = await runHub(['migrate'], cliEnv(database.dataDir, database.databaseUrl, SHARED_KEYS));
  expect(migrated.code, migrated.stderr).toBe(0);
  const created = await runHub(
    ['org', 'create', 'acme', '--name', 'Acme', '--owner', 'ou_owner'],
    cliEnv(database.dataDir, database.databaseUrl, SHARED_KEYS),
  );
  expect(created.code, created.stderr).toBe(0);
  receiver = await WebhookReceiver.start();
});
afterEach(async () => {
  receiver.hold = false;
  receiver.status = 200;
  await Promise.all(running.splice(0).map((instance) => instance.stop()));
});
afterAll(async () => {
  await receiver?.stop();
  await database?.drop();
});

/**
 * An instance on the test's database. On SQLite every instance uses the database's own data
 * directory (one at a time: a restart, not a second machine).
 */
async function start(name: string): Promise<Instance> {
  const dataDir = onPostgres ? undefined : database.dataDir;
  const instance = await Instance.start(name, database.databaseUrl ?? '', FAST, dataDir);
  running.push(instance);
  return instance;
}

async function endpoint(instance: Instance, cookie: string, events: string[]) {
  const created = await request('POST', `${instance.url}/api/org/acme/webhooks`, {
    cookie,
    body: { url: receiver.url, events },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { id: string; secret: string };
}

async function createTeam(instance: Instance, cookie: string): Promise<void> {
  const slug = `team-${++counter}`;
  const made = await request('POST', `${instance.url}/api/org/acme/teams`, { cookie, body: { slug, name: slug } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
}

/** The endpoint's deliveries once `done` holds for them, polled through the API. */
async function deliveriesWhen(
  instance: Instance,
  cookie: string,
  webhookId: string,
  done: (deliveries: Array<{ status: string; attempt: number; messageId: string }>) => boolean,
) {
  for (;;) {
    const listed = await request('GET', `${instance.url}/api/org/acme/webhooks/${webhookId}/deliveries`, { cookie });
    const { deliveries } = listed.body as { deliveries: Array<{ status: string; attempt: number; messageId: string }> };
    if (done(deliveries)) return deliveries;
    await sleep(50);
  }
}

describe(`webhook delivery by hub serve processes (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('survives kill -9 of the sender: the delivery is sent again after its lease, same webhook-id', async () => {
    const first = await start('first');
    const cookie = await logIn(first, 'ou_owner', database.databaseUrl ?? '');
    const { id: webhookId, secret } = await endpoint(first, cookie, ['createTeam']);
    const start0 = receiver.received.length;
    receiver.hold = true;
    await createTeam(first, cookie);
    await receiver.waitFor(start0 + 1);
    first.child.kill('SIGKILL');
    await first.exitedWith;
    receiver.hold = false;

    // A restart on SQLite, another machine on PostgreSQL.
    const second = await start('second');
    const [killed, resent] = (await receiver.waitFor(start0 + 2)).slice(start0);
    expect(resent!.headers['webhook-id']).toBe(killed!.headers['webhook-id']);
    const payload = new Webhook(secret).verify(resent!.body, resent!.headers as Record<string, string>);
    expect(payload).toMatchObject({ type: 'createTeam', data: { action: 'createTeam' } });
    const cookie2 = await logIn(second, 'ou_owner', database.databaseUrl ?? '');
    const [delivery] = await deliveriesWhen(second, cookie2, webhookId, (all) => all[0]?.status === 'delivered');
    expect(delivery).toMatchObject({ status: 'delivered', messageId: killed!.headers['webhook-id'] });
    await request('DELETE', `${second.url}/api/org/acme/webhooks/${webhookId}`, { cookie: cookie2 });
  });

  it('retries a failing receiver on the schedule, then marks the delivery failed', async () => {
    const instance = await start('retrying');
    const cookie = await logIn(instance, 'ou_owner', database.databaseUrl ?? '');
    const { id: webhookId } = await endpoint(instance, cookie, ['createTeam']);
    receiver.status = 500;
    const start0 = receiver.received.length;
    await createTeam(instance, cookie);
    const [delivery] = await deliveriesWhen(instance, cookie, webhookId, (all) => all[0]?.status === 'failed');
    expect(delivery).toMatchObject({ status: 'failed', attempt: 3 });
    const attempts = receiver.received.slice(start0);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
    await request('DELETE', `${instance.url}/api/org/acme/webhooks/${webhookId}`, { cookie });
  });

  it.skipIf(!onPostgres)('two instances deliver every change exactly once between them', async () => {
    const [a, b] = await Promise.all([start('a'), start('b')]);
    const cookie = await logIn(a, 'ou_owner', database.databaseUrl!);
    const { id: webhookId } = await endpoint(a, cookie, ['createTeam']);
    const start0 = receiver.received.length;
    const changes = 30;
    await Promise.all(Array.from({ length: changes }, (_, i) => createTeam(i % 2 ? a : b, cookie)));
    const deliveries = await deliveriesWhen(
      b,
      cookie,
      webhookId,
      (all) => all.length === changes && all.every((d) => d.status === 'delivered'),
    );
    expect(deliveries.every((d) => d.attempt === 1)).toBe(true);
    const ids = receiver.received.slice(start0).map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(changes);
    expect(new Set(ids).size).toBe(changes);
  });
});
