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
    for (const row of rows)
      if (KNOWN.has(row.dimension)) limits[row.dimension as CapacityDimension] = Number(row.limit_value);
    return limits;
  }

  /** Sets (a number) or clears (null) each given limit; run it in one transaction. */
  async apply(
    trx: Executor,
    organizationId: string,
    changes: ReadonlyArray<[CapacityDimension, number | null]>,
    at: string,
  ): Promise<void> {
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
   * Counts one request of the organization in its shared `requestRate` window (PostgreSQL), in
   * one statement: a window that ended (by the database's clock) restarts at 1; an open one
   * admits while below `allowed`; a refused request changes nothing. Resolves to 0 when
   * admitted, else the milliseconds until the window ends.
   */
  async takeRequest(db: Executor, organizationId: string, allowed: number, windowMs: number): Promise<number> {
    const result = await db.raw<{ rows: Array<{ admitted: boolean; wait_ms: string | number | null }> }>(
      `with clock as (select (extract(epoch from clock_timestamp()) * 1000)::bigint as now_ms),
       taken as (
         insert into request_rate_windows as w (organization_id, window_started_ms, request_count)
         select ?, now_ms, 1 from clock
         on conflict (organization_id) do update set
           window_started_ms = case when excluded.window_started_ms - w.window_started_ms >= ?
                                    then excluded.window_started_ms else w.window_started_ms end,
           request_count = case when excluded.window_started_ms - w.window_started_ms >= ?
                                then 1 else w.request_count + 1 end
         where excluded.window_started_ms - w.window_started_ms >= ? or w.request_count < ?
         returning 1
       )
       select exists (select 1 from taken) as admitted,
              (select w.window_started_ms + ? - clock.now_ms
                 from request_rate_windows w, clock where w.organization_id = ?) as wait_ms`,
      [organizationId, windowMs, windowMs, windowMs, allowed, windowMs, organizationId],
    );
    const row = result.rows[0];
    if (!row || row.admitted) return 0;
    // The window's row as this statement's snapshot saw it; a row it could not see yet was just
    // opened by another instance, so the whole window remains.
    const wait = row.wait_ms === null ? windowMs : Number(row.wait_ms);
    return Math.min(windowMs, Math.max(1, wait));
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
