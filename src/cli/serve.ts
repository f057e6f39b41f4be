import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../http/app.js';
import { capConnections, slowClientOptions } from '../http/platform/connection-limits.js';
import { appServerObjects } from '../http/platform/server-objects.js';
import { stdoutLogOutput } from '../log/log-output.js';
import { createLogger, type Logger } from '../log/logger.js';
import { defaultBaseUrl, loadConfig, type Config } from '../config/config.js';
import { HOUR_MS, MINUTE_MS } from '../config/clock.js';
import type { InstanceState } from '../ops/readiness.js';
import { loginUrl, openRuntime, type Runtime } from './runtime.js';
import { forgetServer, recordServer, refuseWhenInUse } from './server-record.js';
import { StartupError } from './startup-error.js';

/** How often the token policy's sweep revokes expired and unused API tokens. */
const TOKEN_SWEEP_INTERVAL_MS = 10 * MINUTE_MS;

/** How long a stopping server waits for its last log lines to leave. */
const LOG_SETTLE_MS = 1_000;

const DEMO = { slug: 'demo', name: 'Demo Organization', ownerImOpenId: 'demo-owner', ownerDisplayName: 'Demo Owner' };

export interface ServeOptions {
  /** `--demo`: seed the demo organization on an empty database whatever the database is. */
  demo: boolean;
}

/**
 * `hub serve`, in the order that keeps a failed start harmless:
 *
 * 1. the configuration (a malformed variable stops here, one line); on SQLite, a data directory
 *    a live `hub serve` holds stops here too, naming its pid and port;
 * 2. the port: bound before the database is touched, so a port in use fails before anything is
 *    migrated or seeded; until the app is ready `/healthz` answers 200 and every other request 503;
 *    the server is recorded in the data directory (`server.json`: on SQLite, the claim of it);
 * 3. the database: migrate, load the keys, listen for the other instances' invalidations;
 * 4. the demo organization, only on the embedded SQLite default or with `--demo`, and only on an
 *    empty database; its one-time login link goes to stderr, never among the JSON log lines;
 * 5. the app; the webhook dispatcher starts sending due deliveries.
 *
 * SIGTERM/SIGINT drain: /readyz turns 503, no new connection is accepted, in-flight requests
 * finish (answered with `Connection: close`) within `HUB_SHUTDOWN_GRACE_MS`, then the record of
 * the base URL is removed (when it is still this process's) and the process exits.
 */
export async function serve(options: ServeOptions): Promise<void> {
  const configured = loadConfig();
  // One server per SQLite data directory: a second would write the same file and take over the
  // console's record; refused before the port is bound or the database touched.
  if (!configured.databaseUrl) refuseWhenInUse(configured.dataDir);
  const logOutput = stdoutLogOutput({ bufferBytes: configured.logBufferBytes });
  const logger = createLogger({ level: configured.logLevel, destination: logOutput });
  const state: InstanceState = { draining: false };

  let handler: (req: IncomingMessage, res: ServerResponse) => void = answerWhileStarting;
  const objects = appServerObjects();
  const server = http.createServer({ ...objects.options, ...slowClientOptions(configured) }, (req, res) => {
    if (state.draining) res.setHeader('Connection', 'close');
    handler(req, res);
  });
  capConnections(server, configured);
  await listen(server, configured);
  const config = withListeningAddress(configured, server);
  try {
    recordServer(config.dataDir, { baseUrl: config.baseUrl, port: config.port, exclusive: !config.databaseUrl });
  } catch (err) {
    await closeServer(server);
    throw err;
  }

  let runtime: Runtime;
  try {
    runtime = await openRuntime({ config, logger, loadKeyring: true, listen: true, create: true });
  } catch (err) {
    await closeServer(server);
    forgetServer(config.dataDir);
    throw err;
  }
  try {
    // Staging directories of installs a crash interrupted; entries themselves are never partial.
    const staleSkillStaging = await runtime.skills.prepareStore();
    if (staleSkillStaging > 0) logger.info({ removed: staleSkillStaging }, 'removed stale skill staging directories');
    if ((options.demo || !config.databaseUrl) && (await runtime.organizations.isEmpty()))
      await seedDemo(runtime, config, logger);

    const app = createApp(runtime, { instance: state, logOutput });
    objects.adopt(app);
    handler = app;
    runtime.webhookDispatcher.start();
  } catch (err) {
    await closeServer(server);
    await runtime.close();
    forgetServer(config.dataDir);
    throw err;
  }

  const housekeeping = setInterval(() => {
    const now = runtime.clock.now();
    runtime.sessions.deleteExpired(now).catch((err: unknown) => logger.warn({ err }, 'session housekeeping failed'));
    // Organizations whose 30 days of deletion are over; instances sharing PostgreSQL each purge
    // an organization the others have not locked (src/orgs/purge.ts).
    runtime.purge.purgeDue().catch((err: unknown) => logger.warn({ err }, 'organization purge failed'));
  }, HOUR_MS);
  housekeeping.unref();
  // Every instance sweeps; on PostgreSQL one at a time gets the round (src/db/job-lock.ts).
  const tokenSweep = setInterval(() => {
    runtime.apiTokens
      .sweep()
      .then((revoked) => {
        if (revoked > 0) logger.info({ revoked }, 'revoked API tokens the token policy ends');
      })
      .catch((err: unknown) => logger.warn({ err }, 'API token sweep failed'));
  }, TOKEN_SWEEP_INTERVAL_MS);
  tokenSweep.unref();

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    state.draining = true;
    clearInterval(housekeeping);
    clearInterval(tokenSweep);
    logger.info(
      { signal, graceMs: config.shutdownGraceMs },
      'draining: no new connections, finishing in-flight requests',
    );
    const deadline = setTimeout(() => {
      logger.warn(
        { graceMs: config.shutdownGraceMs },
        'requests still in flight at the end of the grace period; closing their connections',
      );
      server.closeAllConnections();
    }, config.shutdownGraceMs);
    deadline.unref();
    server.close(() => {
      clearTimeout(deadline);
      // Attempts in progress are recorded before the database closes; one cut short is sent again after its lease.
      runtime.webhookDispatcher
        .stop()
        .then(() => runtime.close())
        .catch((err: unknown) => logger.warn({ err }, 'closing the database failed'))
        .finally(() => {
          forgetServer(config.dataDir);
          logger.info('stopped');
          // The last lines may still wait for a slow reader of stdout; a stalled one is not waited for.
          logOutput.settle(LOG_SETTLE_MS).finally(() => process.exit(0));
        });
    });
    // Connections idle now would hold close() open until their keep-alive timeout.
    server.closeIdleConnections();
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  // Announced only once the signals are handled: a supervisor that stops the server as soon as it
  // reads this line must get a drain, not the default action of a signal nobody listens for yet.
  const engine = config.databaseUrl ? 'postgresql' : `sqlite in ${config.dataDir}`;
  logger.info({ host: config.host, port: config.port, baseUrl: config.baseUrl, database: engine }, 'listening');
}

/**
 * The answer until the app is ready (migrations can wait up to a minute for another instance's
 * lock): the process is alive, so `/healthz` is 200 as the app answers it; everything else,
 * `/readyz` included, is 503 `starting`.
 */
function answerWhileStarting(req: IncomingMessage, res: ServerResponse): void {
  const pathname = (req.url ?? '').split('?', 1)[0];
  if (pathname === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end('{"status":"ok"}');
    return;
  }
  res.writeHead(503, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Retry-After': '1',
    Connection: 'close',
  });
  res.end('{"error":{"code":"starting","message":"The service is starting; retry in a moment."}}');
}

function listen(server: Server, config: Pick<Config, 'host' | 'port'>): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      const where = `${config.host}:${config.port}`;
      if (err.code === 'EADDRINUSE')
        reject(
          new StartupError(
            `port ${config.port} on ${config.host} is in use by another process (set PORT to a free port)`,
          ),
        );
      else if (err.code === 'EACCES')
        reject(new StartupError(`not allowed to listen on ${where} (ports below 1024 need privileges; set PORT)`));
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
        reject(new StartupError(`HOST ${config.host} is not an address of this machine`));
      else reject(new StartupError(`cannot listen on ${where}: ${err.message}`));
    };
    server.once('error', onError);
    server.listen(config.port, config.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/**
 * The configuration with the port actually bound (PORT=0 picks a free one), and the base URL
 * that follows from it when `HUB_BASE_URL` does not set one.
 */
function withListeningAddress(config: Config, server: Server): Config {
  const { port } = server.address() as AddressInfo;
  if (config.baseUrlFromEnvironment) return { ...config, port };
  return { ...config, port, baseUrl: defaultBaseUrl(config.host, port) };
}

async function seedDemo(runtime: Runtime, config: Config, logger: Logger): Promise<void> {
  await runtime.organizations.create(DEMO);
  if (config.loginLinks !== 'on') {
    logger.info({ org: DEMO.slug }, 'created the demo organization (no login link: HUB_LOGIN_LINKS is not on)');
    return;
  }
  const link = await runtime.sessions.issueLoginLink(DEMO.ownerImOpenId);
  logger.info({ org: DEMO.slug }, 'created the demo organization');
  process.stderr.write(
    `\nDemo organization "${DEMO.slug}" created. Log in as its owner (link valid 15 minutes, once):\n  ` +
      `${loginUrl(config.baseUrl, link.token)}\n\n`,
  );
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
