/**
 * The usage report as the screen shows it: rows in the chosen order, figures formatted, and the
 * same rows as CSV. Unknown costs (null: no run of the row had one) stay unknown everywhere:
 * `—` on screen, an empty cell in the CSV, last in either sort direction; never 0.
 */
import type { Schemas } from '../../../lib/api-client';
import type { CsvCell } from '../../../lib/csv';
import type { Sort, SortKey } from './usage-filter';

export type ProjectRow = Schemas['ProjectUsageRow'];
export type Totals = Schemas['UsageTotals'];
export type Breakdown = Schemas['UsageBreakdown'];
export type FactKind = Schemas['FactKindUsageRow']['kind'];

export { formatUsd } from '../../../lib/format';
export { formatCount } from '../../../lib/units';
/** SQL sums of floats carry noise (0.30000000000000004): six decimals are below any price. */
export const roundUsd = (value: number) => Math.round(value * 1e6) / 1e6;

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

export const REPORT_CSV_HEADER = [
  'Project',
  'Project ID',
  'Runs',
  'Runs with cost',
  'Runs without cost',
  'Input tokens',
  'Output tokens',
  'Cost (USD)',
] as const;

const figures = (t: Totals): CsvCell[] => [
  t.runCount,
  t.runsWithCost,
  t.runsWithoutCost,
  t.inputTokens,
  t.outputTokens,
  t.costUsd === null ? null : roundUsd(t.costUsd),
];

/** The table on screen, in its order, then its totals; an unknown cost is an empty cell. */
export function reportCsvRecords(rows: readonly ProjectRow[], totals: Totals): CsvCell[][] {
  return [
    [...REPORT_CSV_HEADER],
    ...rows.map((r) => [r.projectName, r.projectId, ...figures(r)]),
    ['Total', null, ...figures(totals)],
  ];
}

export const BREAKDOWN_CSV_HEADER = ['Group', 'Kind or capability', 'Label', 'Facts', 'Quantity', 'Unit', 'Cost (USD)'];

/** Both breakdown tables in one file: by fact kind, then by capability. */
export function breakdownCsvRecords(breakdown: Breakdown): CsvCell[][] {
  const cost = (c: number | null) => (c === null ? null : roundUsd(c));
  return [
    BREAKDOWN_CSV_HEADER,
    ...breakdown.byFactKind.map((k) => [
      'Fact kind',
      k.kind,
      null,
      k.factCount,
      k.quantity,
      UNIT[k.kind],
      cost(k.costUsd),
    ]),
    ...breakdown.byCapability.map((c) => [
      'Capability',
      c.capabilityId,
      c.label,
      c.factCount,
      c.quantity,
      'calls',
      cost(c.costUsd),
    ]),
  ];
}

/** `usage-acme-2026-11-01-to-2026-11-30.csv`: what was downloaded, readable in a folder of downloads. */
export function csvFileName(kind: 'usage' | 'usage-breakdown', org: string, from: string | null, to: string | null) {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9-]+/g, '_');
  const window = from || to ? `${from ? safe(from) : 'start'}-to-${to ? safe(to) : 'now'}` : 'all-time';
  return `${kind}-${safe(org)}-${window}.csv`;
}
