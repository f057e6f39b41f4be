import type { Knex } from 'knex';
import { isPostgres } from '../../src/db/connect.js';
import { tablesOf } from './every-row.js';

/** Rows written so far, by table. */
export type WriteCounts = Record<string, number>;

export interface WriteCounter {
  counts(): Promise<WriteCounts>;
  /** The tables written since `before`, each with its count of rows: `[]` when nothing was. */
  writtenSince(before: WriteCounts): Promise<string[]>;
}

/**
 * What a request writes whoever calls and whatever the answer: a whole table (`'*'`), or the
 * columns of a table an update may set without counting (a session's last-seen time).
 */
export type Bookkeeping = Record<string, '*' | readonly string[]>;

/**
 * What any request writes whoever calls and whatever the answer: its organization's rate window,
 * and its session's last-seen time and client, or its token's last use.
 */
export const REQUEST_BOOKKEEPING: Bookkeeping = {
  request_rate_windows: '*',
  login_sessions: ['last_seen_at', 'user_agent', 'address'],
  api_tokens: ['last_used_at'],
};

/**
 * Counts the rows every statement inserts, updates or deletes in a test database, table by
 * table, through triggers on every table. "A denied call changes nothing" then compares a few
 * dozen counters before and after the call instead of reading every row of every table, covers
 * the tables a hand-made list would miss (those added later included), and a failure names the
 * table that was written. Installed after the migrations.
 */
export async function installWriteCounter(db: Knex, bookkeeping: Bookkeeping): Promise<WriteCounter> {
  // SQLite's own tables take no trigger.
  const tables = (await tablesOf(db)).filter((table) => !table.startsWith('sqlite_') && bookkeeping[table] !== '*');
  await db.schema.createTable(COUNTS, (t) => {
    t.text('table_name').primary();
    t.bigInteger('n').notNullable();
  });
  await db(COUNTS).insert(tables.map((table_name) => ({ table_name, n: 0 })));
  const postgres = isPostgres(db);
  if (postgres)
    await db.raw(
      `create function test_count_write() returns trigger language plpgsql as $$
       begin update ${COUNTS} set n = n + 1 where table_name = TG_TABLE_NAME; return null; end $$`,
    );
  for (const table of tables) {
    const skipped = bookkeeping[table] ?? [];
    const counted = Object.keys(await db(table).columnInfo()).filter((column) => !skipped.includes(column));
    // An update that sets only skipped columns fires no trigger.
    const update = skipped.length ? `update of ${counted.map((c) => `"${c}"`).join(', ')}` : 'update';
    for (const event of ['insert', update, 'delete']) {
      const name = `test_count_${table}_${event.split(' ')[0]}`;
      await db.raw(
        postgres
          ? `create trigger ?? after ${event} on ?? for each row execute function test_count_write()`
          : // A trigger's body takes no bound values: the name is a literal (table names hold no quote).
            `create trigger ?? after ${event} on ?? ` +
              `begin update ${COUNTS} set n = n + 1 where table_name = '${table}'; end`,
        [name, table],
      );
    }
  }
  const counts = async (): Promise<WriteCounts> => {
    const rows: Array<{ table_name: string; n: number | string }> = await db(COUNTS).select();
    return Object.fromEntries(rows.map((row) => [row.table_name, Number(row.n)]));
  };
  return {
    counts,
    async writtenSince(before) {
      const now = await counts();
      return Object.keys(now)
        .filter((table) => now[table] !== before[table])
        .map((table) => `${table} (${now[table]! - (before[table] ?? 0)} rows)`);
    },
  };
}

const COUNTS = 'test_write_counts';
