/**
 * What SQL a piece of code sends, and how the database runs it: captures every statement
 * issued while `work` runs (knex `query` events) and asks the database for each one's plan —
 * EXPLAIN QUERY PLAN on SQLite, EXPLAIN (ANALYZE, BUFFERS) on PostgreSQL.
 */
import { isPostgres, type Db } from '../../src/db/connect.js';

export interface CapturedQuery {
  sql: string;
  bindings: readonly unknown[];
}

export interface QueryPlan {
  sql: string;
  plan: string[];
}

/** Runs `work` and returns the statements it sent through `db` (only while it ran). */
export async function captureQueries(db: Db, work: () => Promise<unknown>): Promise<CapturedQuery[]> {
  const captured: CapturedQuery[] = [];
  const listener = (data: { sql: string; bindings?: readonly unknown[] }) =>
    captured.push({ sql: data.sql, bindings: data.bindings ?? [] });
  db.on('query', listener);
  try {
    await work();
  } finally {
    db.off('query', listener);
  }
  return captured;
}

/** The plan of one captured read statement; the statement runs for real on PostgreSQL (ANALYZE). */
export async function explain(db: Db, query: CapturedQuery): Promise<QueryPlan> {
  if (isPostgres(db)) {
    const result = (await db.raw(`explain (analyze, buffers) ${positional(query.sql)}`, query.bindings as never)) as {
      rows: { 'QUERY PLAN': string }[];
    };
    return { sql: query.sql, plan: result.rows.map((r) => r['QUERY PLAN']) };
  }
  const rows = (await db.raw(`explain query plan ${query.sql}`, query.bindings as never)) as {
    id: number;
    parent: number;
    detail: string;
  }[];
  const depth = new Map<number, number>([[0, -1]]);
  const plan = rows.map((r) => {
    const d = (depth.get(r.parent) ?? -1) + 1;
    depth.set(r.id, d);
    return `${'  '.repeat(d)}${r.detail}`;
  });
  return { sql: query.sql, plan };
}

/**
 * A captured statement's SQL as raw() takes it: knex reports PostgreSQL statements with native $n
 * placeholders, numbered in order of appearance; raw() wants positional ? placeholders back.
 */
export const positional = (sql: string): string => sql.replace(/\$\d+/g, '?');

/** Only reads can be explained safely (ANALYZE executes); session upkeep writes are skipped. */
export const isRead = (q: CapturedQuery): boolean => /^\s*(select|with)\b/i.test(q.sql);
