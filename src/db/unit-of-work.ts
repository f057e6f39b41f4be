import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_DB_WAIT_MS } from '../config/config.js';
import type { Db } from './connect.js';

/**
 * What a store method runs its SQL on: the database itself for a single statement, or the
 * transaction of the unit of work it is part of. Stores take it as their first argument, so a
 * caller always decides which unit of work a statement belongs to.
 */
export type Executor = Db;

/**
 * What an audited write in one of a unit of work's transactions records itself with: the audit
 * trail (src/audit/trail.ts), which the composition root gives the unit of work.
 */
export interface ChangeRecorder<Change> {
  record(trx: Executor, change: Change): Promise<void>;
}

/** Each open transaction's recorder: the one of the unit of work that opened it. */
const recorders = new WeakMap<Executor, ChangeRecorder<never>>();

/** The recorder of the unit of work whose transaction `trx` is; none outside a unit of work given one. */
export const recorderOf = <Change>(trx: Executor) => recorders.get(trx) as ChangeRecorder<Change> | undefined;

/** How often a unit of work is tried when the database says another writer is in the way. */
const MAX_ATTEMPTS = 8;

/**
 * The one way to run several store calls as one unit: all of them commit together or none
 * does. Services receive it instead of a database handle, so they never import knex.
 */
export class UnitOfWork {
  /**
   * `retryForMs`: how long after its first attempt a refused transaction is still tried again.
   * SQLite's busy timeout already waits that long inside an attempt when another process holds
   * the lock, so a lock held longer is reported (503 `database_busy`) instead of waited out again.
   * `recorder`: what the audited writes of its transactions record themselves with.
   */
  constructor(
    private readonly db: Db,
    private readonly readers: Db = db,
    private readonly retryForMs = DEFAULT_DB_WAIT_MS,
    private readonly recorder?: ChangeRecorder<never>,
  ) {}

  /** The database outside any transaction, for reads and single-statement writes. */
  get executor(): Executor {
    return this.db;
  }

  /**
   * The database's readers (Database.readers), for the reads kept as prepared statements outside
   * a transaction: they run beside a write in progress. Read-only: a write through them fails.
   */
  get reader(): Executor {
    return this.readers;
  }

  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws.
   * A transaction the database refused for a concurrent writer (SQLite's SQLITE_BUSY, which
   * its busy timeout cannot prevent when a reader must become a writer; PostgreSQL's
   * serialization failures and deadlocks) was rolled back whole, so it is run again, after a
   * growing, jittered pause. `work` must therefore have no effect outside the transaction that
   * a second run would repeat wrongly.
   */
  async run<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction((trx) => {
          if (this.recorder) recorders.set(trx, this.recorder);
          return work(trx);
        });
      } catch (err) {
        const retrying = attempt < MAX_ATTEMPTS && Date.now() - started < this.retryForMs;
        if (!retrying || !isWriteConflict(err)) throw err;
        await sleep(Math.random() * 10 * 2 ** attempt);
      }
    }
  }
}

/** The database refused the transaction only because another one was writing at the same time. */
export function isWriteConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === '40001' || code === '40P01';
}
