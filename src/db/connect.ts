import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { DEFAULT_DB_WAIT_MS, type Config } from '../config/config.js';

export type Db = Knex;

/**
 * Opens the database the configuration names: PostgreSQL when DATABASE_URL is set,
 * otherwise the SQLite file `hub.sqlite` in the data directory.
 */
export function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'dbWaitMs'>): Db {
  const wait = { waitMs: config.dbWaitMs };
  if (config.databaseUrl) return openPostgres(config.databaseUrl, wait);
  fs.mkdirSync(config.dataDir, { recursive: true });
  return openSqlite(path.join(config.dataDir, 'hub.sqlite'), wait);
}

/** How long a statement waits for the database: a connection, or SQLite's lock (`HUB_DB_WAIT_MS`). */
interface WaitOptions {
  waitMs?: number;
}

/**
 * A stopped or unreachable server makes every new connection fail at once, and knex keeps trying
 * for its whole acquire time: bounding that bounds how long a request waits before its 503.
 */
export function openPostgres(connectionString: string, { waitMs = DEFAULT_DB_WAIT_MS }: WaitOptions = {}): Db {
  return knexFactory({
    client: 'pg',
    connection: { connectionString, connectionTimeoutMillis: waitMs },
    acquireConnectionTimeout: waitMs,
    pool: { min: 0, max: 10 },
  });
}

/** The page cache's bound, in KiB (a negative cache_size). */
const PAGE_CACHE_KIB = -65_536;

/**
 * Connections of the reader pool beside the one writer. Two served the 100-member list under load
 * as well as four did (×0.99 the req/s, paired rounds), and each holds a page cache of its own, so
 * two bound the memory cached pages can take.
 */
const READERS = 2;

/**
 * SQLite pragmas are per connection, so they are applied as each pooled connection opens:
 * WAL lets the host console write while the server reads, busy_timeout makes a writer wait for
 * the other instead of failing, and synchronous=FULL makes a committed transaction survive a
 * power cut, not only a crash. The page cache may grow to 64 MiB (SQLite's default is 2 MiB) per
 * connection, and only as pages are read: with the default, a large organization's lists came
 * back from the file system on every request (the explorer's tree of 20,000 projects: 92 → 76 ms,
 * its system time 34 → 14 ms).
 *
 * Writes and transactions run on one writer connection, so the app's transactions never meet each
 * other's locks. The reads kept as prepared statements (`preparedQuery`: the lists, the project
 * guard) run outside a transaction on a small pool of readers instead (`readerFor`), which WAL lets
 * read beside the writer: several reads go to the driver's thread pool at once and come back
 * together, instead of one trip at a time through the writer, and on a machine with cores to spare
 * they run in parallel. Under load on one core, the 100-member list, the explorer and a project's
 * read each answered ×1.10–1.12 the requests a second, for ×0.89–0.91 the CPU per request (6 paired
 * rounds each). A reader sees every transaction committed before its read began, as a read on the
 * writer would, and `query_only` makes it refuse any write.
 */
export function openSqlite(filename: string, { waitMs = DEFAULT_DB_WAIT_MS }: WaitOptions = {}): Db {
  const writer = knexFactory(sqliteOptions(filename, 1, waitMs, []));
  const readers = knexFactory(sqliteOptions(filename, READERS, waitMs, ['PRAGMA query_only = ON']));
  // The readers' statements are the database's: its listeners (statement counts in tests and the
  // bench) see them.
  for (const event of ['query', 'query-error', 'query-response'])
    readers.on(event, (...args: unknown[]) => writer.emit(event, ...args));
  // knex has no hook on destroy: closing the database (its client's pool) closes its readers too.
  const client = writer.client as { destroy(callback?: unknown): Promise<void> };
  const destroyWriter = client.destroy.bind(client);
  client.destroy = async (callback) => {
    await readers.destroy();
    return destroyWriter(callback);
  };
  readersOf.set(writer, readers);
  return writer;
}

const readersOf = new WeakMap<Knex, Knex>();

/**
 * Where a kept read runs: SQLite's readers for the database itself, or undefined for a
 * transaction (its own connection) and for PostgreSQL (whose pool already reads in parallel).
 */
export function readerFor(db: Knex | Knex.Transaction): Knex | undefined {
  return readersOf.get(db);
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

type Callback = (this: unknown, err: Error | null, result?: unknown) => void;

interface SqliteStatement {
  all(params: unknown, cb: Callback): void;
  run(params: unknown, cb: Callback): void;
  finalize(cb?: () => void): void;
}

interface SqliteConnection {
  run(sql: string, cb: (err: Error | null) => void): void;
  run(sql: string, params: unknown, cb: Callback): void;
  all(sql: string, params: unknown, cb: Callback): void;
  prepare(sql: string, cb: (err: Error | null) => void): SqliteStatement;
  close(cb: (err: Error | null) => void): void;
}

/** Distinct statements kept prepared per connection; the app sends far fewer, bulk writes a few more. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The statements worth keeping prepared: the queries and writes the app repeats. Schema changes
 * and pragmas run once. EXPLAIN must not be kept at all: SQLite counts an EXPLAIN that ran to
 * its end as still reading until it is reset, and while it does, DROP INDEX or DROP TABLE on the
 * connection fails with SQLITE_LOCKED.
 */
const REPEATED_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * knex runs every statement through the driver's `all` / `run` on the connection, which prepare,
 * execute and finalize it: three trips to the libuv pool and a compile per query. This keeps each
 * distinct query or write prepared, so it is one trip that binds and steps. A statement that ends
 * in an error is finalized and forgotten, the oldest beyond the cache size too; `all` and `run`
 * step to the end, which ends the statement's implicit transaction as the uncached calls do;
 * SQLite re-prepares a statement by itself after a schema change. Statements run one after the
 * other on their connection (the driver queues calls to one statement), so sharing one is safe.
 */
function cacheStatements(conn: SqliteConnection): void {
  /**
   * `waiting`: calls made before the statement finished preparing. The driver never answers a
   * call queued on a statement whose prepare failed, so calls wait for the prepare here and a
   * failed one (a syntax error, an unknown table) is answered with its error and not kept.
   */
  interface Entry {
    statement: SqliteStatement;
    waiting: ((err: Error | null) => void)[] | undefined;
  }
  const statements = new Map<string, Entry>();
  const forget = (sql: string, entry: Entry): void => {
    if (statements.get(sql) === entry) statements.delete(sql);
    entry.statement.finalize();
  };
  const entryFor = (sql: string): Entry => {
    let entry = statements.get(sql);
    if (entry) {
      // Most recently used last: the first entry is the one to evict.
      statements.delete(sql);
    } else {
      const fresh: Entry = { waiting: [] } as unknown as Entry;
      fresh.statement = conn.prepare(sql, (err) => {
        const waiting = fresh.waiting ?? [];
        fresh.waiting = undefined;
        if (err && statements.get(sql) === fresh) statements.delete(sql);
        for (const go of waiting) go(err);
      });
      entry = fresh;
      if (statements.size >= STATEMENT_CACHE_SIZE) {
        const [oldestSql, oldest] = statements.entries().next().value as [string, Entry];
        forget(oldestSql, oldest);
      }
    }
    statements.set(sql, entry);
    return entry;
  };
  const uncached = { all: conn.all.bind(conn), run: conn.run.bind(conn) };
  const cached =
    (method: 'all' | 'run') =>
    (sql: string, params: unknown, cb?: Callback): void => {
      if (typeof params === 'function') {
        cached(method)(sql, [], params as Callback);
        return;
      }
      if (!REPEATED_STATEMENT.test(sql)) {
        uncached[method](sql, params ?? [], cb ?? (() => {}));
        return;
      }
      const entry = entryFor(sql);
      const execute = (): void =>
        entry.statement[method](params ?? [], function (this: unknown, err, result) {
          if (err) forget(sql, entry);
          cb?.call(this, err, result);
        });
      if (entry.waiting) entry.waiting.push((err) => (err ? cb?.call(undefined, err) : execute()));
      else execute();
    };
  const close = conn.close.bind(conn);
  Object.assign(conn, {
    all: cached('all'),
    run: cached('run'),
    close(cb: (err: Error | null) => void) {
      // A connection with statements still prepared refuses to close: finalize them first.
      const pending = [...statements.values()].map((e) => e.statement);
      statements.clear();
      let left = pending.length;
      if (left === 0) return close(cb);
      for (const statement of pending) statement.finalize(() => --left === 0 && close(cb));
    },
  });
}

export function isPostgres(db: Db): boolean {
  return db.client.config.client === 'pg';
}

/** Round-trips to the database; for the health check. */
export async function ping(db: Db): Promise<void> {
  await db.raw('select 1');
}
