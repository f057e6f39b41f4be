import type { Executor } from './unit-of-work.js';

/**
 * How many rows of an organization's `table` are live: `endedColumn` (`archived_at`,
 * `revoked_at`) still null. The counts capacity compares with its limits are all of this shape.
 */
export async function countLiveRows(
  db: Executor,
  table: string,
  endedColumn: 'archived_at' | 'revoked_at',
  organizationId: string,
): Promise<number> {
  const row = await db(table)
    .where({ organization_id: organizationId })
    .whereNull(endedColumn)
    .count<{ n: number | string }[]>({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}
