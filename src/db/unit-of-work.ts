import type { Db } from './connect.js';

/**
 * What a store method runs its SQL on: the database itself for a single statement, or the
 * transaction of the unit of work it is part of. Stores take it as their first argument, so a
 * caller always decides which unit of work a statement belongs to.
 */
export type Executor = Db;

/**
 * The one way to run several store calls as one unit: all of them commit together or none
 * does. Services receive it instead of a database handle, so they never import knex.
 */
export class UnitOfWork {
  constructor(private readonly db: Db) {}

  /** The database outside any transaction, for reads and single-statement writes. */
  get executor(): Executor {
    return this.db;
  }

  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  run<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}
