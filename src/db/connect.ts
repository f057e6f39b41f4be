import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { DEFAULT_DB_WAIT_MS, type Config } from '../config/config.js';
import { cacheStatements, type SqliteConnection } from './sqlite/statement-cache.js';

export type Db = Knex;

/** An open database: where writes go, and where the reads kept as prepared statements go. */
export interface Database {
  /** Writes, transactions, and every read that is not a kept statement. */
  writer: Db;
  /**
   * The kept reads outside a transaction (`preparedQuery`: the lists, the project guard): on
   * SQLite a pool of read-only connections beside the writer; on PostgreSQL the writer itself,
   * whose pool already reads in parallel.
   */
  readers: Db;
  /** Closes every connection. */
  destroy(): Promise<void>;
}

export interface OpenOptions {
  /** Where knex's warnings go (each failed connection attempt, with its stack); the console by default. */
  warn?: (message: string) => void;
  /** How long a statement waits for the database: a connection, or SQLite's lock (`HUB_DB_WAIT_MS`). */
  waitMs?: number;
}

/** The SQLite database's file name inside the data directory. */
export const SQLITE_FILE = 'hub.sqlite';

/**
 * Opens the database the configuration names: PostgreSQL when DATABASE_URL is set,
 * otherwise the SQLite file `hub.sqlite` in the data directory.
 */
export function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'dbWaitMs'>,
  options: OpenOptions = {},
): Database {
  const opened = { waitMs: config.dbWaitMs, ...options };
  if (config.databaseUrl) return openPostgres(config.databaseUrl, opened);
  fs.mkdirSync(config.dataDir, { recursive: true });
  return openSqlite(path.join(config.dataDir, SQLITE_FILE), opened);
}

/**
 * A stopped or unreachable server makes every new connection fail at once, and knex keeps trying
 * for its whole acquire time: bounding that bounds how long a request waits before its 503.
 */
export function openPostgres(connectionString: string, options: OpenOptions = {}): Database {
  const waitMs = options.waitMs ?? DEFAULT_DB_WAIT_MS;
  const writer = knexFactory({
    client: 'pg',
    connection: { connectionString, connectionTimeoutMillis: waitMs },
    acquireConnectionTimeout: waitMs,
    pool: { min: 0, max: 10 },
    ...knexLog(options),
  });
  return { writer, readers: writer, destroy: () => writer.destroy() };
}

/** The page cache's bound, in KiB (a negative cache_size). */
const PAGE_CACHE_KIB = -65_536;

/**
 * Connections of the reader pool beside the one writer. Two served the member list under load as
 * well as four did, and each holds a page cache of its own, so two bound the memory cached pages
 * can take.
 */
const READERS = 2;

/**
 * SQLite pragmas are per connection, so they are applied as each pooled connection opens:
 * WAL lets the host console write while the server reads, busy_timeout makes a writer wait for
 * the other instead of failing, and synchronous=FULL makes a committed transaction survive a
 * power cut, not only a crash. The page cache may grow to 64 MiB (SQLite's default is 2 MiB) per
 * connection, and only as pages are read: with the default, a large organization's lists came
 * back from the file system on every request (bench `structure`, see bench/README.md).
 *
 * Writes and transactions run on one writer connection, so the app's transactions never meet each
 * other's locks. The reads kept as prepared statements run outside a transaction on a small pool
 * of readers instead, which WAL lets read beside the writer: several reads go to the driver's
 * thread pool at once and come back together, instead of one trip at a time through the writer,
 * and on a machine with cores to spare they run in parallel (what it buys: bench/README.md). A
 * reader sees every transaction committed before its read began, as a read on the writer would,
 * and `query_only` makes it refuse any write.
 */
export function openSqlite(filename: string, options: OpenOptions = {}): Database {
  const waitMs = options.waitMs ?? DEFAULT_DB_WAIT_MS;
  const writer = knexFactory({ ...sqliteOptions(filename, 1, waitMs, []), ...knexLog(options) });
  const readers = knexFactory({
    ...sqliteOptions(filename, READERS, waitMs, ['PRAGMA query_only = ON']),
    ...knexLog(options),
  });
  // The readers' statements are the database's: the writer's listeners (statement counts in tests
  // and the bench) see them.
  for (const event of ['query', 'query-error', 'query-response'])
    readers.on(event, (...args: unknown[]) => writer.emit(event, ...args));
  return {
    writer,
    readers,
    async destroy() {
      await readers.destroy();
      await writer.destroy();
    },
  };
}

/** knex's `log` option, when warnings go somewhere other than the console. */
function knexLog({ warn }: OpenOptions): Pick<Knex.Config, 'log'> {
  return warn ? { log: { warn: (message: unknown) => warn(String(message)) } } : {};
}

function sqliteOptions(filename: string, connections: number, waitMs: number, extraPragmas: string[]): Knex.Config {
  const pragmas = [
    // First: a connection opening while another sets up the file waits for it instead of failing.
    // A lock held longer (another process's transaction: a backup) fails the statement with
    // SQLITE_BUSY, answered 503 `database_busy`.
    `PRAGMA busy_timeout = ${waitMs}`,
    'PRAGMA journal_mode = WAL',
    'PRAGMA foreign_keys = ON',
    'PRAGMA synchronous = FULL',
    `PRAGMA cache_size = ${PAGE_CACHE_KIB}`,
    ...extraPragmas,
  ];
  return {
    client: 'sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      // Never fewer: an idle connection closed would lose its kept statements and page cache.
      min: connections,
      max: connections,
      afterCreate(conn: SqliteConnection, done: (err: Error | null, conn: SqliteConnection) => void) {
        const next = (i: number): void => {
          const pragma = pragmas[i];
          if (pragma === undefined) {
            cacheStatements(conn);
            done(null, conn);
            return;
          }
          conn.run(pragma, (err) => (err ? done(err, conn) : next(i + 1)));
        };
        next(0);
      },
    },
  };
}

export function isPostgres(db: Db): boolean {
  return db.client.config.client === 'pg';
}

/** Round-trips to the database; for the health check. */
export async function ping(db: Db): Promise<void> {
  await db.raw('select 1');
}
