import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type { Config } from '../config/config.js';

export type Db = Knex;

/**
 * Opens the database the configuration names: PostgreSQL when DATABASE_URL is set,
 * otherwise the SQLite file `hub.sqlite` in the data directory.
 */
export function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Db {
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  fs.mkdirSync(config.dataDir, { recursive: true });
  return openSqlite(path.join(config.dataDir, 'hub.sqlite'));
}

export function openPostgres(connectionString: string): Db {
  return knexFactory({
    client: 'pg',
    connection: { connectionString },
    pool: { min: 0, max: 10 },
  });
}

/**
 * SQLite pragmas are per connection, so they are applied as each pooled connection opens:
 * WAL lets the host console write while the server reads, busy_timeout makes a writer wait for
 * the other instead of failing, and synchronous=FULL makes a committed transaction survive a
 * power cut, not only a crash.
 */
export function openSqlite(filename: string): Db {
  return knexFactory({
    client: 'sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: SqliteConnection, done: (err: Error | null, conn: SqliteConnection) => void) {
        const pragmas = [
          'PRAGMA journal_mode = WAL',
          'PRAGMA busy_timeout = 30000',
          'PRAGMA foreign_keys = ON',
          'PRAGMA synchronous = FULL',
        ];
        const next = (i: number): void => {
          const pragma = pragmas[i];
          if (pragma === undefined) {
            done(null, conn);
            return;
          }
          conn.run(pragma, (err) => (err ? done(err, conn) : next(i + 1)));
        };
        next(0);
      },
    },
  });
}

interface SqliteConnection {
  run(sql: string, cb: (err: Error | null) => void): void;
}

export function isPostgres(db: Db): boolean {
  return db.client.config.client === 'pg';
}

/** Round-trips to the database; for the health check. */
export async function ping(db: Db): Promise<void> {
  await db.raw('select 1');
}
