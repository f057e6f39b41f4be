import type { Executor } from '../db/unit-of-work.js';
import { COST_MICROS_PER_USD } from '../usage/cost-micros.js';
import type { UsageFilter } from '../usage/records.js';
import type { UsageStore } from '../usage/store.js';

/** What a budget's scope has spent in a window. */
export interface Spend {
  costUsd: number;
  tokens: number;
  runsWithoutCost: number;
}

/**
 * The spend of the runs in [from, to) under the filter, from the usage report's own sums (one
 * aggregation for the report and for budgets): unknown costs count 0, and the runs that had one
 * are counted.
 */
export async function spendIn(
  usage: Pick<UsageStore, 'usageByProject'>,
  db: Executor,
  organizationId: string,
  filter: UsageFilter,
): Promise<Spend> {
  const rows = await usage.usageByProject(db, organizationId, filter);
  const spend: Spend = { costUsd: 0, tokens: 0, runsWithoutCost: 0 };
  // Whole micro-dollars, added exactly and divided once, as the report does.
  let micros = 0;
  for (const row of rows) {
    micros += Number(row.cost_micros ?? 0);
    spend.tokens += Number(row.input_tokens ?? 0) + Number(row.output_tokens ?? 0);
    spend.runsWithoutCost += Number(row.run_count) - Number(row.runs_with_cost);
  }
  spend.costUsd = micros / COST_MICROS_PER_USD;
  return spend;
}
