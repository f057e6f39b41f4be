import type { Executor } from '../db/unit-of-work.js';
import { COST_MICROS_PER_USD } from '../usage/cost-micros.js';
import type { RunSumRecord, UsageFilter } from '../usage/records.js';
import type { TeamSums } from '../usage/team-sums.js';
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
  return spendOf(await usage.usageByProject(db, organizationId, filter));
}

/** The spend of the runs counted for a team (`filter.teamId`) in [from, to), from the report's team sums. */
export async function teamSpendIn(
  teams: TeamSums,
  db: Executor,
  organizationId: string,
  filter: UsageFilter,
): Promise<Spend> {
  const sums = teams.daySums(db, { organizationId, ...filter });
  return spendOf(sums ? ((await sums) as RunSumRecord[]) : []);
}

/**
 * Each member's own spend in [from, to) under the filter (a team's while they were in it, with
 * `filter.teamId`): what a per-member allowance measures. Members without a run are absent, and so
 * are the runs no member is accountable for.
 */
export async function memberSpendsIn(
  stores: { usage: Pick<UsageStore, 'runSums'>; teams: TeamSums },
  db: Executor,
  organizationId: string,
  filter: UsageFilter,
): Promise<Map<string, Spend>> {
  const params = { organizationId, ...filter };
  const sums =
    filter.teamId !== undefined
      ? stores.teams.daySums(db, params, true)
      : stores.usage.runSums(db, params, ['member_id']);
  const perMember = new Map<string, RunSumRecord[]>();
  for (const row of sums ? ((await sums) as Array<RunSumRecord & { member_id: string }>) : []) {
    if (row.member_id === '') continue;
    perMember.set(row.member_id, [...(perMember.get(row.member_id) ?? []), row]);
  }
  return new Map([...perMember].map(([member, rows]) => [member, spendOf(rows)]));
}

function spendOf(rows: RunSumRecord[]): Spend {
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
