import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';
import { COST_MICROS_PER_USD } from './cost-micros.js';
import type {
  CapabilitySumRecord,
  FactKindSumRecord,
  FactSumRecord,
  RunSumRecord,
  UsageGroupRecord,
  UsageRowRecord,
} from './records.js';

/*
 * The usage report's and the breakdown's rows, declared like every other resource's. Sums come
 * back from the database as numbers or numeric strings depending on the engine, so each count is
 * read through `Number`.
 */

/**
 * Micro-dollars as dollars. Sums are added in micro-dollars, which are exact, and divided once, so
 * a total is the same whatever order or split its parts came in.
 */
const toUsd = (micros: number): number => micros / COST_MICROS_PER_USD;

/** The run sums every report row shows. */
const runSumFields = {
  runCount: { column: 'run_count', as: Number },
  runsWithCost: { column: 'runs_with_cost', as: Number },
  runsWithoutCost: { from: (r: RunSumRecord) => Number(r.run_count) - Number(r.runs_with_cost) },
  inputTokens: { column: 'input_tokens', as: (tokens: number | string | null) => Number(tokens ?? 0) },
  outputTokens: { column: 'output_tokens', as: (tokens: number | string | null) => Number(tokens ?? 0) },
  costUsd: {
    from: (r: RunSumRecord) => (Number(r.runs_with_cost) === 0 ? null : toUsd(Number(r.cost_micros ?? 0))),
  },
} as const;

/** A window's sums of one project; by project name as people read it, then id. */
export const projectUsageProjection = projection<UsageRowRecord, Schema<'ProjectUsageRow'>>()({
  fields: {
    projectId: 'project_id',
    projectName: 'project_name',
    folderId: 'folder_id',
    ...runSumFields,
  },
  order: [
    { column: 'project_name', by: 'name' },
    { column: 'project_id', by: 'codeUnits' },
  ],
});

/** A window's sums of one member, team or token; by label then key, the row of runs without one last. */
export const usageGroupProjection = projection<UsageGroupRecord, Schema<'UsageGroupRow'>>()({
  fields: {
    key: 'key',
    label: 'label',
    ...runSumFields,
  },
  order: [
    { column: 'label', by: 'name' },
    { column: 'key', by: 'codeUnits' },
  ],
});

/** The rows of a grouped report, the row without a key last. */
export function toUsageGroups(records: UsageGroupRecord[]): Schema<'UsageGroupRow'>[] {
  const rows = usageGroupProjection.order.sorted(records.map(usageGroupProjection.toApi));
  return [...rows.filter((r) => r.key !== null), ...rows.filter((r) => r.key === null)];
}

/** The kinds of fact, in the order the breakdown lists them: what runs cost most often first. */
const FACT_KINDS = ['model', 'tool', 'capability'] as const;
type FactKind = (typeof FACT_KINDS)[number];
const isFactKind = (kind: string): kind is FactKind => (FACT_KINDS as readonly string[]).includes(kind);

/** The sums every breakdown row shows. */
const sumFields = {
  factCount: { column: 'fact_count', as: Number },
  quantity: { column: 'quantity', as: (quantity: number | string | null) => Number(quantity ?? 0) },
  costUsd: {
    from: (r: FactSumRecord) => (Number(r.facts_with_cost) === 0 ? null : toUsd(Number(r.cost_micros ?? 0))),
  },
} as const;

/** One kind's sums; in the order of `FACT_KINDS` (a rank read from its last entry first). */
export const factKindUsageProjection = projection<FactKindSumRecord & { kind: FactKind }, Schema<'FactKindUsageRow'>>()(
  {
    fields: { kind: 'kind', ...sumFields },
    order: [{ column: 'kind', by: { rankDescending: [...FACT_KINDS].reverse() } }],
  },
);

/** One external capability's sums, labelled by its connection; by capability id. */
export const capabilityUsageProjection = projection<CapabilitySumRecord, Schema<'CapabilityUsageRow'>>()({
  fields: { capabilityId: 'capability_id', label: 'label', ...sumFields },
  order: [{ column: 'capability_id', by: 'codeUnits' }],
});

/** The usage report of a window: one row per project, and their totals. */
export function toUsageReport(
  from: string | undefined,
  to: string | undefined,
  records: UsageRowRecord[],
): Schema<'UsageReport'> {
  const rows = projectUsageProjection.order.sorted(records.map(projectUsageProjection.toApi));
  return { from: from ?? null, to: to ?? null, projects: rows, totals: sumRows(rows) };
}

function sumRows(rows: Schema<'ProjectUsageRow'>[]): Schema<'UsageTotals'> {
  const totals: Schema<'UsageTotals'> = {
    runCount: 0,
    runsWithCost: 0,
    runsWithoutCost: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: null,
  };
  // Added in micro-dollars, recovered exactly from each row's dollars.
  let micros: number | null = null;
  for (const row of rows) {
    totals.runCount += row.runCount;
    totals.runsWithCost += row.runsWithCost;
    totals.runsWithoutCost += row.runsWithoutCost;
    totals.inputTokens += row.inputTokens;
    totals.outputTokens += row.outputTokens;
    if (row.costUsd !== null) micros = (micros ?? 0) + Math.round(row.costUsd * COST_MICROS_PER_USD);
  }
  totals.costUsd = micros === null ? null : toUsd(micros);
  return totals;
}

/**
 * The breakdown of a window: one row per fact kind with at least one fact, and one per external
 * capability (by id) labelled by its connection.
 */
export function toUsageBreakdown(
  from: string | undefined,
  to: string | undefined,
  byKind: FactKindSumRecord[],
  byCapability: CapabilitySumRecord[],
): Schema<'UsageBreakdown'> {
  const kinds = byKind.filter((r): r is FactKindSumRecord & { kind: FactKind } => isFactKind(r.kind));
  return {
    from: from ?? null,
    to: to ?? null,
    byFactKind: factKindUsageProjection.order.sorted(kinds.map(factKindUsageProjection.toApi)),
    byCapability: capabilityUsageProjection.order.sorted(byCapability.map(capabilityUsageProjection.toApi)),
  };
}
