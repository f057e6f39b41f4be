import fs from 'node:fs';
import path from 'node:path';
import { createServices, type Services } from '../app/services.js';
import { loadConfig, type Config } from '../config/config.js';
import { systemClock } from '../config/clock.js';
import { openDatabase, SQLITE_FILE, type Db } from '../db/connect.js';
import { migrateLatest } from '../db/migrate.js';
import { PostgresInvalidations } from '../db/notifications.js';
import { createLogger, type Logger } from '../log/logger.js';
import { loadStartupKeyring } from '../connections/keyrings.js';
import type { Keyring } from '../crypto/keyring.js';
import { databaseStartupError, describeUrl, StartupError } from './startup-error.js';

/** Opens the configured database, brings it to the latest schema, and wires the services. */
export interface Runtime extends Services {
  /** Migrations this start applied (empty when the schema was current). */
  migrationsApplied: string[];
  close(): Promise<void>;
}

/**
 * `loadKeyring` loads the master keys before anything runs (serve, and commands that seal), so
 * a bad key configuration stops start-up; otherwise they are loaded when first needed.
 *
 * On PostgreSQL every process — each `hub serve` and each host-console command — is one of
 * possibly several sharing the database: its cache invalidations are published to the others
 * (LISTEN/NOTIFY), and `requestRate` windows and skill content live in the database. `listen`
 * (serve) also subscribes to the others' invalidations.
 */
export async function openRuntime(
  options: {
    config?: Config;
    logger?: Logger;
    loadKeyring?: boolean;
    listen?: boolean;
    /**
     * Whether a missing database may be created (serve, migrate). Any other command refuses one
     * that is not there: a mistyped HUB_DATA_DIR would otherwise leave an empty database behind
     * and report "no organization" instead of the real mistake.
     */
    create?: boolean;
  } = {},
): Promise<Runtime> {
  const config = options.config ?? loadConfig();
  if (!options.create && !config.databaseUrl) requireSqliteFile(config.dataDir);
  const logger = options.logger ?? createLogger({ level: config.logLevel, destination: process.stderr as never });
  // knex prints each failed connection attempt with its stack on the console ("Acquire connection
  // error: …"); the failure itself reaches the caller, which reports it in one line. The warning
  // goes to the log at debug level instead, its first line only.
  const database = openDatabase(config, {
    warn: (message) => logger.debug({ warning: message.split('\n', 1)[0] }, 'database driver warning'),
  });
  const db = database.writer;
  let migrationsApplied: string[] = [];
  let keyring: Keyring | undefined;
  const invalidations = config.databaseUrl ? new PostgresInvalidations(db, logger) : undefined;
  try {
    let initialized: boolean;
    try {
      initialized = options.create === true || (await db.schema.hasTable(MIGRATIONS_TABLE));
      if (initialized) migrationsApplied = await migrateWhenUnlocked(db);
    } catch (err) {
      throw databaseStartupError(err, config.databaseUrl);
    }
    if (!initialized)
      throw noDatabase(
        `the PostgreSQL database ${describeUrl(config.databaseUrl ?? '')} (DATABASE_URL) has no hub schema`,
      );
    if (options.loadKeyring)
      keyring = await loadStartupKeyring(db, { masterKeys: config.masterKeys, dataDir: config.dataDir, logger });
    if (invalidations && options.listen) await invalidations.start();
  } catch (err) {
    await invalidations?.close();
    await database.destroy();
    throw err;
  }
  const services = createServices({
    config,
    db,
    readers: database.readers,
    clock: systemClock,
    logger,
    keyring,
    sharedDatabase: invalidations ? { invalidations } : undefined,
  });
  return {
    ...services,
    migrationsApplied,
    close: async () => {
      await invalidations?.close();
      await database.destroy();
    },
  };
}

/** The table knex keeps the applied migrations in: present in every database `hub migrate` made. */
const MIGRATIONS_TABLE = 'knex_migrations';

function requireSqliteFile(dataDir: string): void {
  const file = path.join(dataDir, SQLITE_FILE);
  if (!fs.existsSync(file))
    throw noDatabase(`no database in the data directory ${dataDir} (HUB_DATA_DIR): ${file} does not exist`);
}

function noDatabase(what: string): StartupError {
  return new StartupError(
    `${what}; run "hub migrate" (or "hub serve") to create it, ` +
      'or point HUB_DATA_DIR / DATABASE_URL at the existing one',
  );
}

/** How long a start waits for another instance's migration run to finish. */
const MIGRATION_LOCK_WAIT_MS = 60_000;

/**
 * Several instances started together all migrate: knex lets one hold the migration lock and
 * refuses the others at once, so they wait and try again (finding the schema current).
 */
async function migrateWhenUnlocked(db: Db): Promise<string[]> {
  const deadline = Date.now() + MIGRATION_LOCK_WAIT_MS;
  for (let delay = 100; ; delay = Math.min(delay * 2, 2_000)) {
    try {
      return await migrateLatest(db);
    } catch (err) {
      if ((err as { name?: unknown } | null)?.name !== 'MigrationLocked' || Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

export function loginUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/auth/login?token=${encodeURIComponent(token)}`;
}
