import type { KeyUsage } from '../crypto/keyring.js';
import type { Executor } from './unit-of-work.js';

/**
 * The master keys a table's sealed secrets name (its `key_id` column), with how many rows each
 * seals, for a table where every row is a live secret: the keyring refuses to start without a key
 * that still seals one.
 */
export async function sealedKeyUsage(db: Executor, table: string): Promise<KeyUsage[]> {
  const rows = await db(table)
    .groupBy('key_id')
    .select<Array<{ key_id: string; versions: number | string }>>('key_id', db.raw('count(*) as versions'));
  return rows.map((row) => ({
    keyId: row.key_id,
    versions: Number(row.versions),
    activeVersions: Number(row.versions),
  }));
}
