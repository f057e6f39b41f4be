/**
 * The usage report as the screen shows it: rows in the chosen order, figures formatted. Unknown
 * costs (null: no run of the row had one) stay unknown everywhere: `—` on screen, last in either
 * sort direction; never 0.
 */
import type { Schemas } from '../../../lib/api-client';
import type { Sort, SortKey } from './usage-filter';

export type ProjectRow = Schemas['ProjectUsageRow'];
export type Totals = Schemas['UsageTotals'];
export type Breakdown = Schemas['UsageBreakdown'];
export type FactKind = Schemas['FactKindUsageRow']['kind'];

export { formatUsd } from '../../../lib/format';
export { formatCount } from '../../../lib/units';

export const UNIT: Record<FactKind, string> = { model: 'tokens', tool: 'calls', capability: 'calls' };

const value = (row: ProjectRow, key: SortKey): string | number | null => {
  switch (key) {
    case 'project':
      return row.projectName;
    case 'runs':
      return row.runCount;
    case 'inputTokens':
      return row.inputTokens;
    case 'outputTokens':
      return row.outputTokens;
    case 'cost':
      return row.costUsd;
  }
};

const byName = (a: ProjectRow, b: ProjectRow) =>
  a.projectName.localeCompare(b.projectName, 'en') || a.projectId.localeCompare(b.projectId);

/** A new array in the chosen order; ties by project name; unknown costs last whichever the direction. */
export function sortRows(rows: readonly ProjectRow[], sort: Sort): ProjectRow[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = value(a, sort.key);
    const y = value(b, sort.key);
    if (x === null || y === null) return x === y ? byName(a, b) : x === null ? 1 : -1;
    const order = typeof x === 'string' ? x.localeCompare(String(y), 'en') : x - (y as number);
    return order ? sign * order : byName(a, b);
  });
}
