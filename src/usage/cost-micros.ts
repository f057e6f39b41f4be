import type { Knex } from 'knex';
import { isPostgres } from '../db/connect.js';
import type { Executor } from '../db/unit-of-work.js';

/**
 * Costs are summed as whole micro-dollars: each run's or fact's cost rounded half up to 1e-6 USD,
 * then added as integers, so a sum is the same whichever days come from the rollups and which from
 * raw rows (float sums in another order can differ in the last bits). Costs are never negative.
 */
export const COST_MICROS_PER_USD = 1_000_000;

/** One cost in micro-dollars, the way the SQL below rounds it (IEEE doubles on both sides). */
export const costMicros = (costUsd: number): number => Math.floor(costUsd * COST_MICROS_PER_USD + 0.5);

/** The SQL of costMicros over a column (null for null). */
export function costMicrosSql(db: Executor | Knex, column: string): string {
  return isPostgres(db)
    ? `floor(${column} * ${COST_MICROS_PER_USD} + 0.5)::bigint`
    : `cast(${column} * ${COST_MICROS_PER_USD} + 0.5 as integer)`;
}
