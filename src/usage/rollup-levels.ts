/**
 * The usage rollups, level by level: each a table of sums of runs (or facts) per UTC day or UTC
 * month and per some keys. The daily levels keyed by everything a read may group or filter by
 * answer any read; the narrow levels answer the common reads from far fewer rows: per project
 * and month (the report, the breakdown and budgets), per month alone (the whole-organization
 * breakdown), per day and agent (a whole-organization series by model, provider or role). A read
 * takes, for each grain, the first level listed that has every key it needs.
 */

export type RollupGrain = 'day' | 'month';

export interface RollupLevel {
  table: string;
  grain: RollupGrain;
  /** The keys it sums by, besides the organization and its day or month. */
  keys: readonly string[];
}

/** What a run names about its agent, as `runs` stores it: the agent keys of its rollup rows. */
export const AGENT_KEYS = ['provider', 'role_id', 'model'] as const;

export const RUN_LEVELS: readonly RollupLevel[] = [
  { table: 'usage_run_months', grain: 'month', keys: ['project_id'] },
  { table: 'usage_run_agent_days', grain: 'day', keys: AGENT_KEYS },
  { table: 'usage_run_days', grain: 'day', keys: ['project_id', ...AGENT_KEYS] },
];

export const FACT_LEVELS: readonly RollupLevel[] = [
  { table: 'usage_fact_org_months', grain: 'month', keys: ['kind', 'capability_id'] },
  { table: 'usage_fact_months', grain: 'month', keys: ['project_id', 'kind', 'capability_id'] },
  { table: 'usage_fact_days', grain: 'day', keys: ['project_id', ...AGENT_KEYS, 'kind', 'capability_id'] },
];

/** The sums each run level and fact level keeps. */
export const RUN_SUMS = ['run_count', 'runs_with_cost', 'input_tokens', 'output_tokens', 'cost_micros'] as const;
export const FACT_SUMS = ['fact_count', 'facts_with_cost', 'quantity', 'cost_micros'] as const;

/** The widest level of each grain: every other level of the family is derived from its daily one. */
export const dailyLevel = (levels: readonly RollupLevel[]): RollupLevel => {
  const daily = levels.filter((level) => level.grain === 'day');
  return daily[daily.length - 1]!;
};

/** The first level of a grain that has every key a read needs (`day` is the daily grain itself). */
export function levelFor(
  levels: readonly RollupLevel[],
  grain: RollupGrain,
  needed: readonly string[],
): RollupLevel | null {
  const keys = needed.filter((key) => key !== 'day');
  if (grain === 'month' && keys.length < needed.length) return null;
  return levels.find((level) => level.grain === grain && keys.every((key) => level.keys.includes(key))) ?? null;
}
