import type { TestHub } from './test-hub.js';

/**
 * Every row of every table of the hub's database, blobs as latin1 text: a byte-for-byte search
 * target for leak scans, the same on both engines.
 */
export async function everyRow(hub: TestHub): Promise<string> {
  const db = hub.services.db;
  const tables: string[] =
    hub.database.engine === 'sqlite'
      ? await db('sqlite_master').where({ type: 'table' }).pluck('name')
      : await db('information_schema.tables').where({ table_schema: 'public' }).pluck('table_name');
  const parts: string[] = [];
  for (const table of tables) {
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
