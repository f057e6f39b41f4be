import { isPostgres, type Db } from '../../src/db/connect.js';
import type { TestHub } from './test-hub.js';

/**
 * Every row of every table of the hub's database, blobs as latin1 text: a byte-for-byte search
 * target for leak scans, the same on both engines.
 */
export async function everyRow(hub: TestHub): Promise<string> {
  const db = hub.services.db;
  const parts: string[] = [];
  for (const table of await tableNames(hub)) {
    for (const row of await db(table).select()) {
      parts.push(
        Object.values(row as Record<string, unknown>)
          .map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : String(v)))
          .join('\u0000'),
      );
    }
  }
  return parts.join('\n');
}

/** The names of every table of the hub's database, on either engine. */
export function tableNames(hub: TestHub): Promise<string[]> {
  return tablesOf(hub.services.db);
}

/** The names of every table of a database, on either engine (SQLite's own `sqlite_…` included). */
export function tablesOf(db: Db): Promise<string[]> {
  return isPostgres(db)
    ? db('information_schema.tables').where({ table_schema: 'public' }).pluck('table_name')
    : db('sqlite_master').where({ type: 'table' }).pluck('name');
}
