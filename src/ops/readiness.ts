import type { Db } from '../db/connect.js';
import { pendingMigrations } from '../db/migrate.js';

/** A readiness probe that takes longer than this counts as a database that does not answer. */
const PROBE_TIMEOUT_MS = 2_000;

export type Readiness = { ready: true } | { ready: false; reason: string };

/** What an instance's readiness depends on besides the database: a draining instance is not ready. */
export interface InstanceState {
  draining: boolean;
}

/**
 * `/readyz`: the database answers and every migration this code knows is applied, and the
 * instance is not draining for shutdown. Never throws: an unreachable database is a reason.
 */
export async function checkReadiness(db: Db, state: InstanceState): Promise<Readiness> {
  if (state.draining) return { ready: false, reason: 'shutting down' };
  try {
    const pending = await withTimeout(
      (async () => {
        await db.raw('select 1');
        return pendingMigrations(db);
      })(),
      PROBE_TIMEOUT_MS,
    );
    if (pending.length > 0)
      return { ready: false, reason: `migrations pending: ${pending.join(', ')} (run "hub migrate")` };
    return { ready: true };
  } catch {
    return { ready: false, reason: 'database unreachable' };
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
