import type { Executor } from '../db/unit-of-work.js';
import { CAPACITY_DIMENSIONS, type CapacityDimension, type DimensionValues } from './dimensions.js';

interface LimitRecord {
  dimension: string;
  limit_value: number;
}

const KNOWN = new Set<string>(CAPACITY_DIMENSIONS);

/** Organizations' own capacity limits. */
export class CapacityStore {
  /** The organization's limits, by dimension; dimensions without a limit are absent. */
  async limitsOf(db: Executor, organizationId: string): Promise<DimensionValues> {
    const rows = await db('organization_capacity_limits')
      .where({ organization_id: organizationId })
      .select<LimitRecord[]>('dimension', 'limit_value');
    const limits: DimensionValues = {};
    // A row of a dimension a later contract dropped is ignored rather than served.
    for (const row of rows) if (KNOWN.has(row.dimension)) limits[row.dimension as CapacityDimension] = Number(row.limit_value);
    return limits;
  }

  /** Sets (a number) or clears (null) each given limit; run it in one transaction. */
  async apply(trx: Executor, organizationId: string, changes: ReadonlyArray<[CapacityDimension, number | null]>, at: string): Promise<void> {
    for (const [dimension, value] of changes) {
      const row = trx('organization_capacity_limits');
      if (value === null) {
        await row.where({ organization_id: organizationId, dimension }).delete();
      } else {
        await row
          .insert({ organization_id: organizationId, dimension, limit_value: value, updated_at: at })
          .onConflict(['organization_id', 'dimension'])
          .merge(['limit_value', 'updated_at']);
      }
    }
  }

  /**
   * Locks the organization's row until the transaction ends (PostgreSQL; SQLite's single
   * connection already serializes writers), so capacity checks of one organization run one at
   * a time and each counts what the previous one inserted. NO KEY UPDATE does not block the
   * key-share locks that inserts referencing the organization take.
   */
  async lockOrganization(trx: Executor, organizationId: string): Promise<void> {
    await trx('organizations').where({ id: organizationId }).forNoKeyUpdate().first('id');
  }
}
