import type { Knex } from 'knex';
import { isPostgres } from './connect.js';
import type { Executor } from './unit-of-work.js';

/** A read whose rows are wanted whole: the query, and the names of the columns it selects. */
export interface RowSet {
  query: Knex.QueryBuilder;
  columns: readonly string[];
}

/**
 * The rows of several reads in one statement, each set built into one JSON text by the database
 * and parsed once here, instead of crossing the driver one value at a time: the sqlite3 driver
 * makes every value of every row a separate JavaScript value, which is most of the cost of a long
 * list (100 members: ~240 → ~150 µs of CPU; 20,000 projects: about half the query's time), and
 * each statement is a trip to the driver's thread. For lists the app reads whole.
 *
 * The rows carry the `columns` named, and only those; values keep their types: text stays text, numbers numbers
 * and NULL null, on both engines (PostgreSQL's bigint counts come back as numbers here, where its
 * driver gives strings: mappers take either).
 */
export async function jsonRowSets<Sets extends Record<string, RowSet>>(
  db: Executor,
  sets: Sets,
): Promise<{ [Name in keyof Sets]: unknown[] }> {
  const onPostgres = isPostgres(db);
  const names = Object.keys(sets);
  const selects = names.map((name, i) => {
    const { query, columns } = sets[name]!;
    const fields = columns.map(field).join(', ');
    const rows = onPostgres
      ? `(select coalesce(json_agg(json_build_object(${fields})), '[]'::json) from (?) as r)`
      : `(select json_group_array(json_object(${fields})) from (?) as r)`;
    return db.raw(`${rows} as set_${i}`, [query]);
  });
  const [result] = (await db.select(selects)) as Record<string, unknown>[];
  const answer: Record<string, unknown[]> = {};
  names.forEach((name, i) => {
    const value = result![`set_${i}`];
    answer[name] = (typeof value === 'string' ? JSON.parse(value) : value) as unknown[];
  });
  return answer as { [Name in keyof Sets]: unknown[] };
}

/** The rows of one read whole, as `jsonRowSets` reads them. */
export async function jsonRows<Row>(
  db: Executor,
  query: Knex.QueryBuilder,
  columns: readonly string[],
): Promise<Row[]> {
  const { rows } = await jsonRowSets(db, { rows: { query, columns } });
  return rows as Row[];
}

/**
 * A column as a key and its value. Column names are the stores' own identifiers, never input. The
 * value is the column qualified by the row set's alias: SQLite would read a bare double-quoted name
 * that matches no column as a string, hiding a misnamed column; qualified, it fails on both engines.
 */
function field(column: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(column)) throw new Error(`jsonRows: "${column}" is not a column name`);
  return `'${column}', r.${column}`;
}
