import { createServices, type Services } from '../app/services.js';
import { loadConfig, type Config } from '../config/config.js';
import { systemClock } from '../config/clock.js';
import { openDatabase } from '../db/connect.js';
import { migrateLatest } from '../db/migrate.js';
import { createLogger, type Logger } from '../log/logger.js';
import { loadStartupKeyring } from '../connections/keyrings.js';
import type { Keyring } from '../crypto/keyring.js';

/** Opens the configured database, brings it to the latest schema, and wires the services. */
export interface Runtime extends Services {
  /** Migrations this start applied (empty when the schema was current). */
  migrationsApplied: string[];
  close(): Promise<void>;
}

/**
 * `loadKeyring` loads the master keys before anything runs (serve, and commands that seal), so
 * a bad key configuration stops start-up; otherwise they are loaded when first needed.
 */
export async function openRuntime(options: { config?: Config; logger?: Logger; loadKeyring?: boolean } = {}): Promise<Runtime> {
  const config = options.config ?? loadConfig();
  const logger = options.logger ?? createLogger({ level: config.logLevel, destination: process.stderr as never });
  const db = openDatabase(config);
  let migrationsApplied: string[];
  let keyring: Keyring | undefined;
  try {
    migrationsApplied = await migrateLatest(db);
    if (options.loadKeyring) keyring = await loadStartupKeyring(db, { masterKeys: config.masterKeys, dataDir: config.dataDir, logger });
  } catch (err) {
    await db.destroy();
    throw err;
  }
  const services = createServices({ config, db, clock: systemClock, logger, keyring });
  return { ...services, migrationsApplied, close: () => db.destroy() };
}

export function loginUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/auth/login?token=${encodeURIComponent(token)}`;
}
