import { type CapturedQuery, captureQueries, explain, positional } from '../../bench/lib/query-plan.js';
import type { Db } from '../../src/db/connect.js';
import { tableNames } from './every-row.js';
import type { TestHub } from './test-hub.js';

/** A read or write that went through a whole table, and the line of its plan that says so. */
export interface FullScan {
  sql: string;
  line: string;
}

/** The statements the hub's database ran while `work` did, in order (the bench's capture). */
export const statementsOf = (hub: TestHub, work: () => Promise<unknown>): Promise<CapturedQuery[]> =>
  captureQueries(hub.services.db, work);

/** What `work` gives, the statements it sent added to `sent`. */
export async function recordedInto<T>(hub: TestHub, sent: CapturedQuery[], work: () => Promise<T>): Promise<T> {
  let result: T | undefined;
  sent.push(...(await statementsOf(hub, async () => (result = await work()))));
  return result as T;
}

const PLANNED = /^\s*(select|update|delete|with)\b/i;

/**
 * The statements that read whole tables by design: the keyring's check when it first opens
 * (src/crypto/keyring.ts), once per process, counts every sealed version by master key
 * (connection versions, identity providers' client secrets, webhook secrets); the sign-in page lists the
 * platform's few identity providers.
 */
const WHOLE_BY_DESIGN = [
  /group by [`"]v[`"]\.[`"]key_id[`"]/,
  /from [`"]identity_providers[`"] group by [`"]key_id[`"]/,
  /from [`"]webhook_secrets[`"] group by [`"]key_id[`"]/,
  /from [`"]identity_providers[`"] order by [`"]id[`"]/,
];

/**
 * The statements among `statements` whose plan reads a whole table, each with its plan line
 * (those in `WHOLE_BY_DESIGN` left out).
 * On SQLite: a `SCAN` of a table (by name or by its alias in the statement), through an index or
 * not. On PostgreSQL: a `Seq Scan` that remains with sequential scans priced out of reach, that is
 * a statement no index can serve, whatever the size of the test's tables. PostgreSQL then reads a
 * whole index as readily as it searches one, and its plan does not say which; SQLite's does.
 */
export async function fullScans(hub: TestHub, statements: readonly CapturedQuery[]): Promise<FullScan[]> {
  const db = hub.services.db;
  const tables = new Set(await tableNames(hub));
  const planned = statements.filter((s) => PLANNED.test(s.sql) && !WHOLE_BY_DESIGN.some((by) => by.test(s.sql)));
  const distinct = [...new Map(planned.map((s) => [s.sql, s])).values()];
  const onSqlite = hub.database.engine === 'sqlite';
  const scan = onSqlite ? /^\s*SCAN (\w+)/ : /Seq Scan on (\w+)/;
  const scans: FullScan[] = [];
  for (const statement of distinct) {
    const lines = onSqlite ? (await explain(db, statement)).plan : await postgresPlan(db, statement);
    for (const line of lines) {
      const scanned = scan.exec(line)?.[1];
      if (scanned === undefined) continue;
      const table = aliasesOf(statement.sql).get(scanned) ?? scanned;
      if (tables.has(table)) scans.push({ sql: statement.sql, line: line.trim() });
    }
  }
  return scans;
}

async function postgresPlan(db: Db, { sql, bindings }: CapturedQuery): Promise<string[]> {
  return db.transaction(async (trx) => {
    await trx.raw('set local enable_seqscan = off');
    // Not the bench's explain: that one runs the statement (ANALYZE), and with sequential scans on.
    const result = (await trx.raw(`explain ${positional(sql)}`, bindings as never)) as {
      rows: { 'QUERY PLAN': string }[];
    };
    return result.rows.map((row) => row['QUERY PLAN']);
  });
}

/** The tables of a statement by the alias each goes by in it (`"teams" as "t"`, either quoting). */
function aliasesOf(sql: string): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const [, table, alias] of sql.matchAll(/[`"](\w+)[`"] as [`"](\w+)[`"]/g)) aliases.set(alias!, table!);
  return aliases;
}
