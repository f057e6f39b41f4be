/**
 * The `webhooks` case: what a subscribed endpoint costs a change, and how fast one instance
 * delivers.
 *
 * On a scratch database (SQLite, or DATABASE_URL's PostgreSQL) with the app wired as in
 * production and a receiver in a process of its own on loopback (answers 204):
 *   latency     PATCH a team's name over HTTP in two organizations, interleaved: one with no
 *               webhook endpoint, one with five subscribed to every event. The difference is
 *               the outbox: one delivery row per endpoint, written in the change's transaction.
 *               The dispatcher is stopped meanwhile, so the figure is the request's own work.
 *   throughput  the deliveries those changes left (five per change in the second organization),
 *               sent by one instance's dispatcher from start until the queue is empty: claim,
 *               sign, POST, record the attempt.
 * Once, untimed: every delivery recorded as delivered, and the receiver answered at least as many.
 *
 * Environment: DATABASE_URL, BENCH_WEBHOOKS_ROUNDS (default 500, after 20 warm-up rounds),
 * BENCH_WEBHOOKS_ENDPOINTS (default 5).
 * Returns 1 when a check failed or a request did not answer as expected.
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { createServices } from '../../src/app/services.js';
import { systemClock } from '../../src/config/clock.js';
import type { Config } from '../../src/config/config.js';
import { createLogger } from '../../src/log/logger.js';
import { benchConfig, envInteger } from '../lib/env.js';
import { HttpClientChild } from '../lib/http-client.js';
import { listenInProcess, login } from '../lib/in-process.js';
import { openScratchDb, type ScratchDb } from '../lib/scratch-db.js';
import { recordCaseReport } from '../lib/targets.js';
import { timeInterleaved } from '../lib/timing.js';
import { WebhookReceiverChild } from '../lib/webhook-receiver.js';
import type { BenchCase } from './case.js';

const WARMUP = 20;
/** How often the drain looks at the queue; well under the time one batch of ten takes to send. */
const DRAIN_POLL_MS = 50;

let held: {
  server?: http.Server;
  client?: HttpClientChild;
  receiver?: WebhookReceiverChild;
  scratch?: ScratchDb;
  stopDispatcher?: () => Promise<void>;
} = {};

async function release(): Promise<void> {
  const { server, client, receiver, scratch, stopDispatcher } = held;
  held = {};
  await stopDispatcher?.().catch(() => undefined);
  client?.stop();
  receiver?.stop();
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await scratch?.drop();
}

async function run(): Promise<number> {
  const rounds = envInteger('BENCH_WEBHOOKS_ROUNDS', 500, 5, 100_000);
  const endpoints = envInteger('BENCH_WEBHOOKS_ENDPOINTS', 5, 1, 100);
  const failures: string[] = [];

  const scratch = await openScratchDb(`webhooks_${randomBytes(4).toString('hex')}`, 'webhooks');
  held.scratch = scratch;
  console.log(`${scratch.engine}, ${scratch.where}`);
  const config: Config = {
    ...benchConfig(scratch),
    // The receiver listens on loopback, as tests' receivers do.
    outboundAllowPrivate: true,
    // Nothing fails here; a retry would only be waited for.
    webhookDelivery: { retryDelaysMs: [1_000], leaseMs: 60_000, pollMs: DRAIN_POLL_MS },
  };
  const logger = createLogger({ level: 'info', destination: pino.destination({ dest: '/dev/null', sync: true }) });
  const services = createServices({ config, db: scratch.db, readers: scratch.readers, clock: systemClock, logger });
  const { server, origin } = await listenInProcess(services);
  held.server = server;
  const client = HttpClientChild.start();
  held.client = client;
  const receiver = await WebhookReceiverChild.start();
  held.receiver = receiver;

  /** One JSON request from the client process, timed there; any other status than `expected` fails the run. */
  let bodies = 0;
  const call = async (cookie: string, method: string, url: string, body: unknown, expected: number) => {
    const bodyId = `body-${++bodies}`;
    await client.storeBody(bodyId, new TextEncoder().encode(JSON.stringify(body)));
    const answer = await client.request({
      method,
      url: `${origin}${url}`,
      headers: { accept: 'application/json', 'content-type': 'application/json', cookie },
      bodyId,
      wantText: true,
    });
    if (answer.status !== expected)
      throw new Error(`${method} ${url} answered ${answer.status}: ${answer.text?.slice(0, 300)}`);
    return answer;
  };

  /** An organization with one team, its owner signed in; `hooks` endpoints subscribed to every event. */
  const organization = async (slug: string, hooks: number) => {
    const owner = `${slug}-owner`;
    await services.organizations.create({ slug, name: slug, ownerImOpenId: owner });
    const cookie = await login(services, owner);
    const team = await call(cookie, 'POST', `/api/org/${slug}/teams`, { slug: 'bench', name: 'Bench' }, 201);
    const teamId = (JSON.parse(team.text ?? '{}') as { id: string }).id;
    for (let i = 0; i < hooks; i++)
      await call(
        cookie,
        'POST',
        `/api/org/${slug}/webhooks`,
        { url: `${receiver.origin}/${slug}/${i}`, events: ['*'] },
        201,
      );
    let renames = 0;
    // A new name each time, so every request changes the row and writes its audit event.
    return () => call(cookie, 'PATCH', `/api/org/${slug}/teams/${teamId}`, { name: `Bench ${++renames}` }, 200);
  };
  const quiet = await organization('quiet', 0);
  const subscribed = await organization('subscribed', endpoints);
  const dispatcher = services.webhookDispatcher;
  // The endpoints' own creations are changes too, told to the endpoints already there.
  const queuedBySetup = (await dispatcher.queue()).depth;

  console.log(`latency: ${rounds} rounds after ${WARMUP} warm-up rounds, the two organizations interleaved\n`);
  const labels = { quiet: 'PATCH team, no endpoint', subscribed: `PATCH team, ${endpoints} endpoints` };
  const latency = await timeInterleaved(
    { [labels.quiet]: quiet, [labels.subscribed]: subscribed },
    { warmup: WARMUP, n: rounds, budgetMs: Number.POSITIVE_INFINITY, minN: rounds },
  );
  const width = Math.max(...Object.values(labels).map((l) => l.length));
  const ms = (value: number) => `${value.toFixed(2).padStart(8)} ms`;
  console.log(
    `${'request'.padEnd(width)}   ${'median'.padStart(11)} ${'p95'.padStart(11)} ${'server CPU'.padStart(11)}`,
  );
  for (const label of Object.values(labels)) {
    const s = latency[label]!;
    console.log(`${label.padEnd(width)}   ${ms(s.medianMs)} ${ms(s.p95Ms)} ${ms(s.cpuMedianMs)}`);
  }
  const added = latency[labels.subscribed]!.medianMs - latency[labels.quiet]!.medianMs;
  console.log(`added by ${endpoints} endpoints: ${added.toFixed(2)} ms at the median`);

  const queued = (await dispatcher.queue()).depth;
  const expectedQueue = queuedBySetup + (rounds + WARMUP) * endpoints;
  if (queued !== expectedQueue) failures.push(`${queued} deliveries queued, expected ${expectedQueue}`);
  const started = performance.now();
  dispatcher.start();
  held.stopDispatcher = () => dispatcher.stop();
  while ((await dispatcher.queue()).depth > 0) await sleep(DRAIN_POLL_MS);
  const drainMs = performance.now() - started;
  await dispatcher.stop();
  const perSecond = queued / (drainMs / 1000);
  console.log(
    `\nthroughput: ${queued} deliveries sent in ${(drainMs / 1000).toFixed(1)} s by one dispatcher: ` +
      `${perSecond.toFixed(0)} deliveries/s`,
  );
  const { delivered, retrying, failed } = dispatcher.outcomes;
  if (delivered !== queued || retrying + failed > 0)
    failures.push(`outcomes: ${delivered} delivered, ${retrying} retrying, ${failed} failed of ${queued}`);
  const received = await receiver.received();
  if (received < queued) failures.push(`the receiver answered ${received} deliveries of ${queued}`);

  recordCaseReport('webhooks', {
    database: scratch.engine,
    endpoints,
    latency,
    addedMedianMs: added,
    deliveries: queued,
    drainMs,
    deliveriesPerSecond: perSecond,
  });
  for (const failure of failures) console.error(`check failed: ${failure}`);
  return failures.length > 0 ? 1 : 0;
}

export const webhooksCase: BenchCase = {
  name: 'webhooks',
  summary: 'a change with five webhook endpoints subscribed vs none, and deliveries per second of one dispatcher',
  run,
  abort: release,
};
