/**
 * A bend of the sqlite3 driver (docs/architecture.md, "Where we bend Express, knex and sqlite3"): each pooled
 * connection's `all` and `run`, the two methods knex's sqlite3 client runs every statement with
 * (`connection[callMethod](sql, bindings, callback)`), are replaced by ones that keep the
 * statement prepared. test/db/sqlite/statement-cache.test.ts fails when the driver or knex stops
 * having the shape this relies on.
 */
export type Callback = (this: unknown, err: Error | null, result?: unknown) => void;

export interface SqliteStatement {
  all(params: unknown, cb: Callback): void;
  run(params: unknown, cb: Callback): void;
  finalize(cb?: () => void): void;
}

export interface SqliteConnection {
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
export function cacheStatements(conn: SqliteConnection): void {
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
