import type { Server } from 'node:http';
import { createApp } from '../http/app.js';
import { createLogger } from '../log/logger.js';
import { loadConfig } from '../config/config.js';
import { HOUR_MS } from '../config/clock.js';
import { loginUrl, openRuntime } from './runtime.js';

const DEMO = { slug: 'demo', name: 'Demo Organization', ownerImOpenId: 'demo-owner', ownerDisplayName: 'Demo Owner' };

/** `hub serve`: migrate, seed the demo organization on an empty database, then serve HTTP. */
export async function serve(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel });
  const runtime = await openRuntime({ config, logger, loadKeyring: true });
  const engine = config.databaseUrl ? 'postgresql' : `sqlite in ${config.dataDir}`;
  // Staging directories of installs a crash interrupted; entries themselves are never partial.
  const staleSkillStaging = await runtime.skills.prepareStore();
  if (staleSkillStaging > 0) logger.info({ removed: staleSkillStaging }, 'removed stale skill staging directories');

  if (await runtime.organizations.isEmpty()) {
    await runtime.organizations.create(DEMO);
    const link = await runtime.sessions.issueLoginLink(DEMO.ownerImOpenId);
    logger.info({ org: DEMO.slug }, 'created the demo organization');
    process.stdout.write(`\nDemo organization "${DEMO.slug}" created. Log in as its owner (link valid 15 minutes, once):\n  ${loginUrl(config.baseUrl, link.token)}\n\n`);
  }

  const app = createApp(runtime);
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.port, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  logger.info({ port: config.port, baseUrl: config.baseUrl, database: engine }, 'listening');

  const housekeeping = setInterval(() => {
    const now = runtime.clock.now();
    runtime.sessions
      .deleteExpired(now)
      .catch((err: unknown) => logger.warn({ err }, 'session housekeeping failed'));
  }, HOUR_MS);
  housekeeping.unref();

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    clearInterval(housekeeping);
    server.close(() => {
      runtime.close().finally(() => process.exit(0));
    });
    // Keep-alive connections would hold close() open; do not wait for them forever.
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}
