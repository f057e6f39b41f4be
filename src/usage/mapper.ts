import type { Schema } from '../http/operation-types.js';
import { byCodeUnits, byName } from '../shared/order.js';
import type { UsageRowRecord } from './store.js';

type ProjectUsageRow = Schema<'ProjectUsageRow'>;

/**
 * The usage report of a window: one row per project, by project name then id, and their sums.
 * Sums come back from the database as numbers or numeric strings depending on the engine.
 */
export function toUsageReport(from: string | undefined, to: string | undefined, records: UsageRowRecord[]): Schema<'UsageReport'> {
  const rows = records.map(toProjectUsageRow).sort((a, b) => byName(a.projectName, b.projectName) || byCodeUnits(a.projectId, b.projectId));
  return { from: from ?? null, to: to ?? null, projects: rows, totals: sumRows(rows) };
}

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
    costUsd: r.cost_usd === null ? null : Number(r.cost_usd),
  };
}

function sumRows(rows: ProjectUsageRow[]): Schema<'UsageTotals'> {
  const totals: Schema<'UsageTotals'> = { runCount: 0, runsWithCost: 0, runsWithoutCost: 0, inputTokens: 0, outputTokens: 0, costUsd: null };
  for (const row of rows) {
    totals.runCount += row.runCount;
    totals.runsWithCost += row.runsWithCost;
    totals.runsWithoutCost += row.runsWithoutCost;
    totals.inputTokens += row.inputTokens;
    totals.outputTokens += row.outputTokens;
    if (row.costUsd !== null) totals.costUsd = (totals.costUsd ?? 0) + row.costUsd;
  }
  return totals;
}
