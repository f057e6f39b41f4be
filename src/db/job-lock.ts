import { createHash } from 'node:crypto';
import type { Executor } from './unit-of-work.js';

/**
 * Whether this transaction may run the periodic job `job` now. Every `hub serve` runs the same
 * jobs; on PostgreSQL, where several may share the database, a transaction-scoped advisory lock
 * lets one instance at a time through and the others skip the round (it is released when the
 * transaction ends). SQLite serves one instance per data directory, so the job always runs.
 */
export async function holdsJobLock(trx: Executor, job: string): Promise<boolean> {
  if (trx.client.config.client !== 'pg') return true;
  const key = createHash('sha256').update(job).digest().readInt32BE(0);
  const result = (await trx.raw('select pg_try_advisory_xact_lock(?) as locked', [key])) as {
    rows: Array<{ locked: boolean }>;
  };
  return result.rows[0]?.locked === true;
}
