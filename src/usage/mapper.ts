import type { Schema } from '../api/types.js';
import { byCodeUnits, byName } from '../shared/order.js';
import { listOrder } from '../shared/pagination.js';
import { COST_MICROS_PER_USD } from './cost-micros.js';
import type { CapabilitySumRecord, FactKindSumRecord, FactSumRecord, UsageRowRecord } from './records.js';

type ProjectUsageRow = Schema<'ProjectUsageRow'>;

/**
 * The usage report of a window: one row per project, by project name then id, and their sums.
 * Sums come back from the database as numbers or numeric strings depending on the engine.
 */
export function toUsageReport(
  from: string | undefined,
  to: string | undefined,
  records: UsageRowRecord[],
): Schema<'UsageReport'> {
  const rows = projectRowOrder.sorted(records.map(toProjectUsageRow));
  return { from: from ?? null, to: to ?? null, projects: rows, totals: sumRows(rows) };
}

/** A report's rows by project name as people read it, then id. */
const projectRowOrder = listOrder((row: ProjectUsageRow) => [row.projectName, row.projectId], byName, byCodeUnits);

function toProjectUsageRow(r: UsageRowRecord): ProjectUsageRow {
  const runCount = Number(r.run_count);
  const runsWithCost = Number(r.runs_with_cost);
  return {
    projectId: r.project_id,
    projectName: r.project_name,
    folderId: r.folder_id,
    runCount,
    runsWithCost,
    runsWithoutCost: runCount - runsWithCost,
    inputTokens: Number(r.input_tokens ?? 0),
    outputTokens: Number(r.output_tokens ?? 0),
    costUsd: runsWithCost === 0 ? null : toUsd(Number(r.cost_micros ?? 0)),
  };
}

/**
 * Micro-dollars as dollars. Sums are added in micro-dollars, which are exact, and divided once, so
 * a total is the same whatever order or split its parts came in.
 */
const toUsd = (micros: number): number => micros / COST_MICROS_PER_USD;

function sumRows(rows: ProjectUsageRow[]): Schema<'UsageTotals'> {
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

/** The order fact kinds are listed in: what runs cost most often first. */
const KIND_ORDER = ['model', 'tool', 'capability'] as const;
type FactKind = (typeof KIND_ORDER)[number];
const isFactKind = (kind: string): kind is FactKind => (KIND_ORDER as readonly string[]).includes(kind);

/** A sum of facts; quantity and cost come back as numbers or numeric strings depending on the engine. */
const sums = (r: FactSumRecord) => ({
  factCount: Number(r.fact_count),
  quantity: Number(r.quantity ?? 0),
  costUsd: Number(r.facts_with_cost) === 0 ? null : toUsd(Number(r.cost_micros ?? 0)),
});

/**
 * The breakdown of a window: one row per fact kind with at least one fact (model, tool,
 * capability), and one per external capability (by id) labelled by its connection.
 */
export function toUsageBreakdown(
  from: string | undefined,
  to: string | undefined,
  byKind: FactKindSumRecord[],
  byCapability: CapabilitySumRecord[],
): Schema<'UsageBreakdown'> {
  const kinds = byKind.filter((r): r is FactKindSumRecord & { kind: FactKind } => isFactKind(r.kind));
  kinds.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
  return {
    from: from ?? null,
    to: to ?? null,
    byFactKind: kinds.map((r) => ({ kind: r.kind, ...sums(r) })),
    byCapability: byCapability
      .map((r) => ({ capabilityId: r.capability_id, label: r.label ?? null, ...sums(r) }))
      .sort((a, b) => byCodeUnits(a.capabilityId, b.capabilityId)),
  };
}
