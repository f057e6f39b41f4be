import type { Request, RequestHandler } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/connect.js';
import { renderedErrorCode } from '../errors/error-middleware.js';
import type { LogOutput } from '../log/log-output.js';
import { listOperations, toExpressPath, type OpenApiDocument } from '../http/openapi-document.js';
import { isOperationsPath } from './paths.js';
import { signInOutcomeOf } from '../identity/outcome.js';
import { resolveOutcomeOf } from '../runtime/resolve-outcome.js';

/** Error codes that mean "refused by a capacity limit", counted on their own. */
const CAPACITY_REFUSALS = new Set(['rate_limited', 'payload_too_large', 'capacity_exceeded']);
/** Request latency buckets, in seconds: most answers take milliseconds, skill installs longer. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Each state of `hub_db_pool_connections`, and the pool's count of its connections. */
const POOL_STATES = {
  used: 'numUsed',
  free: 'numFree',
  pending_acquire: 'numPendingAcquires',
  pending_create: 'numPendingCreates',
} as const;

/** The part of knex's (tarn) pool the gauges read: the counts POOL_STATES names. */
type PoolView = Record<(typeof POOL_STATES)[keyof typeof POOL_STATES], () => number>;

/** What `/metrics` reads of the webhook dispatcher (src/webhooks/dispatcher.ts). */
export interface WebhookQueueView {
  readonly outcomes: Readonly<Record<string, number>>;
  queue(): Promise<{ depth: number; oldestAgeSeconds: number }>;
}

export interface Metrics {
  registry: Registry;
  /** Counts and times every request; mount it before the routes. */
  recordRequests: RequestHandler;
}

/**
 * The service's Prometheus metrics, in a registry of its own per app (so tests may build
 * several apps in one process):
 *
 * - `hub_http_requests_total` and `hub_http_request_duration_seconds`, by `operation` (the
 *   operationId of openapi.yaml; `ops` for the operations endpoints, `other` for the admin
 *   app and unknown paths, so the label's values stay bounded) and `status`;
 * - `hub_capacity_refusals_total` by `code`: `rate_limited` (429), `payload_too_large` (413),
 *   `capacity_exceeded` (409);
 * - `hub_sign_ins_total` by `provider` (a configured provider's id, else `unknown`) and `outcome`
 *   (`success`, or the refusal's code), one per sign-in callback;
 * - `hub_runtime_credential_resolves_total` by `kind` (`provider`, `capability`, `chatApplication`)
 *   and `outcome` (`resolved`, `not_found`, `disabled`, `draft`, `error`), one per
 *   `resolveRuntimeCredential` call that named what to resolve;
 * - `hub_db_pool_connections` by `state` (`used`, `free`, `pending_acquire`, `pending_create`), over
 *   the database's pools (on SQLite, the writer's and its readers');
 * - `hub_webhook_deliveries_total` by `outcome` (`delivered`, `retrying`, `failed`): attempts this
 *   instance made; `hub_webhook_queue_depth`: deliveries waiting (all instances');
 *   `hub_webhook_oldest_pending_age_seconds`: how long the oldest of them has waited;
 * - `hub_log_lines_dropped_total`: log lines dropped because stdout was not read fast enough, or
 *   failed (a full disk, a reader gone);
 * - the process metrics of prom-client (`process_*`, `nodejs_*`: CPU, memory, event-loop lag).
 */
export function createMetrics(deps: {
  db: Db;
  readers: Db;
  spec: OpenApiDocument;
  logOutput?: Pick<LogOutput, 'dropped'>;
  webhooks?: WebhookQueueView | undefined;
}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'hub_http_requests_total',
    help: 'HTTP requests answered, by operationId and status',
    labelNames: ['operation', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'hub_http_request_duration_seconds',
    help: 'Time from receiving a request to finishing its answer, by operationId and status',
    labelNames: ['operation', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'hub_capacity_refusals_total',
    help: 'Requests refused by a capacity limit: rate_limited (429), payload_too_large (413), capacity_exceeded (409)',
    labelNames: ['code'] as const,
    registers: [registry],
  });
  for (const code of CAPACITY_REFUSALS) refusals.inc({ code }, 0);
  const signIns = new Counter({
    name: 'hub_sign_ins_total',
    help: 'Sign-in callbacks through identity providers, by provider and outcome (success or the refusal code)',
    labelNames: ['provider', 'outcome'] as const,
    registers: [registry],
  });
  const runtimeResolves = new Counter({
    name: 'hub_runtime_credential_resolves_total',
    help: "Connection credentials resolved for the host's runtime, by kind and outcome (resolved or why not)",
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'hub_db_pool_connections',
    help: 'Database pool connections by state',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const databases = new Set([deps.db, deps.readers]);
      const pools = [...databases].flatMap((db) => (db.client as { pool?: PoolView }).pool ?? []);
      for (const [state, count] of Object.entries(POOL_STATES)) {
        const connections = pools.reduce((sum, pool) => sum + pool[count](), 0);
        this.set({ state }, connections);
      }
    },
  });

  new Counter({
    name: 'hub_log_lines_dropped_total',
    help: 'Log lines dropped: stdout was not read fast enough, or writing to it failed',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(deps.logOutput?.dropped ?? 0);
    },
  });

  if (deps.webhooks) webhookMetrics(registry, deps.webhooks);

  const operationOf = operationNamer(deps.spec);
  const recordRequests: RequestHandler = (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const labels = { operation: operationOf(req), status: String(res.statusCode) };
      requests.inc(labels);
      latency.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      const code = renderedErrorCode(res);
      if (code && CAPACITY_REFUSALS.has(code)) refusals.inc({ code });
      const signIn = signInOutcomeOf(res);
      if (signIn) signIns.inc({ provider: signIn.provider, outcome: signIn.outcome });
      const resolve = resolveOutcomeOf(res);
      if (resolve) runtimeResolves.inc({ kind: resolve.kind, outcome: resolve.outcome });
    });
    next();
  };
  return { registry, recordRequests };
}

/** The operationId of the route that answered, from the route Express matched. */
function operationNamer(spec: OpenApiDocument): (req: Request) => string {
  const byRoute = new Map<string, string>();
  for (const { operationId, method, path } of listOperations(spec)) {
    byRoute.set(`${method.toUpperCase()} ${toExpressPath(path)}`, operationId);
    if (method === 'get') byRoute.set(`HEAD ${toExpressPath(path)}`, operationId);
  }
  return (req) => {
    const routePath = (req.route as { path?: unknown } | undefined)?.path;
    if (typeof routePath === 'string') {
      const id = byRoute.get(`${req.method} ${routePath}`);
      if (id) return id;
    }
    if (isOperationsPath(req.path)) return 'ops';
    return 'other';
  };
}

function webhookMetrics(registry: Registry, webhooks: WebhookQueueView): void {
  new Counter({
    name: 'hub_webhook_deliveries_total',
    help: 'Webhook delivery attempts made by this instance, by outcome (delivered, retrying, failed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [outcome, count] of Object.entries(webhooks.outcomes)) this.inc({ outcome }, count);
    },
  });
  // One read of the outbox serves both gauges of a scrape; a database that cannot answer leaves
  // them out rather than taking the whole scrape down with it.
  let reading: Promise<{ depth: number; oldestAgeSeconds: number } | undefined> | undefined;
  const queue = () => {
    reading ??= webhooks
      .queue()
      .catch(() => undefined)
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  new Gauge({
    name: 'hub_webhook_queue_depth',
    help: 'Webhook deliveries waiting for their first or next attempt',
    registers: [registry],
    async collect() {
      const read = await queue();
      if (read) this.set(read.depth);
    },
  });
  new Gauge({
    name: 'hub_webhook_oldest_pending_age_seconds',
    help: 'How long the oldest waiting webhook delivery has waited, in seconds (0 when none waits)',
    registers: [registry],
    async collect() {
      const read = await queue();
      if (read) this.set(read.oldestAgeSeconds);
    },
  });
}
