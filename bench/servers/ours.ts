/**
 * Our service as production runs it: the whole createApp stack (request log, CSRF guard, body and
 * cookie parsing, express-openapi-validator on requests only, the authorizer with its caches,
 * the database), info-level logging on, on a fresh database seeded with one organization whose
 * owner holds a real session.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { createServices } from '../../src/app/services.js';
import { systemClock } from '../../src/config/clock.js';
import { loadConfig } from '../../src/config/config.js';
import { openDatabase, type Db } from '../../src/db/connect.js';
import { migrateLatest } from '../../src/db/migrate.js';
import { createApp } from '../../src/http/app.js';
import { createLogger } from '../../src/log/logger.js';
import { runBenchServer } from '../lib/server-child.js';

const OWNER = 'bench-owner';
const ORG_NAME = 'Bench Org';

await runBenchServer(async () => {
  // DATABASE_URL selects PostgreSQL exactly as in production; otherwise SQLite in a temp dir.
  const env = loadConfig(process.env);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-bench-'));
  const config = { ...env, dataDir };
  const onPostgres = config.databaseUrl !== undefined;
  const db = openDatabase(config);
  const release = async (): Promise<void> => {
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await migrateLatest(db);
    // Info level on, as in production; pino's synchronous file destination is the same code path
    // as its default stdout one, so each request still pays for formatting and one write(2).
    const logger = createLogger({ level: 'info', destination: pino.destination({ dest: '/dev/null', sync: true }) });
    const services = createServices({ config, db, clock: systemClock, logger });

    // A shared PostgreSQL database may hold the org of an earlier run that died before cleaning up.
    const slug = onPostgres ? `bench-${randomBytes(4).toString('hex')}` : 'bench';
    const org = await services.organizations.create({ slug, name: ORG_NAME, ownerImOpenId: OWNER });
    const link = await services.sessions.issueLoginLink(OWNER);
    const session = await services.sessions.redeemLoginLink(link.token);

    return {
      handler: createApp(services),
      target: {
        path: `/api/org/${slug}`,
        headers: { accept: 'application/json', cookie: `hub_session=${session.token}` },
        expectedBody: { organization: org, actorRole: 'OWNER' },
      },
      async close() {
        await waitForIdlePool(db);
        try {
          if (onPostgres) {
            // Memberships and settings cascade; the owner user stays and is reused next time.
            await services.sessions.logoutToken(session.token);
            await db('organizations').where({ id: org.id }).delete();
          }
        } finally {
          await release();
        }
      },
    };
  } catch (err) {
    await release();
    throw err;
  }
});

/**
 * Requests whose client went away at the end of the load still run to completion; destroying
 * knex under them aborts their queued queries with noisy "Acquire connection error"s. Waits,
 * boundedly, until no query holds or awaits a connection.
 */
async function waitForIdlePool(db: Db, timeoutMs = 2_000): Promise<void> {
  const pool = db.client.pool as { numUsed?(): number; numPendingAcquires?(): number } | undefined;
  const busy = () => (pool?.numUsed?.() ?? 0) + (pool?.numPendingAcquires?.() ?? 0) > 0;
  for (const deadline = Date.now() + timeoutMs; busy() && Date.now() < deadline; ) await sleep(20);
}
