/**
 * The usage rollups, level by level: each a table of sums of runs (or facts) per UTC day or UTC
 * month and per some keys. The daily levels keyed by everything a read may group or filter by
 * answer any read; the narrow levels answer the common reads from far fewer rows: per project
 * and month (the report, the breakdown and budgets), per month alone (the whole-organization
 * breakdown), per day and agent (a whole-organization series by model, provider or role). The
 * levels per accountable member (and API token and project), by day and by month, answer the
 * reads by person; per person and month alone, the reports by person over whole months. A read
 * takes, for each grain, the first level listed that has every key it needs.
 */

export type RollupGrain = 'day' | 'month';

export interface RollupLevel {
  table: string;
  grain: RollupGrain;
  /** The keys it sums by, besides the organization and its day or month. */
  keys: readonly string[];
  /** The daily level it is summed from when rebuilt; absent: summed from the raw rows. */
  from?: string;
}

/** What a run names about its agent, as `runs` stores it: the agent keys of its rollup rows. */
export const AGENT_KEYS = ['provider', 'role_id', 'model'] as const;

/**
 * Who a run is counted for, as the levels per person key it: the accountable member, the API
 * token that started it and the accountable service account, `''` for none (a run nobody is
 * named for).
 */
export const PERSON_KEYS = ['member_id', 'api_token_id', 'service_account_id'] as const;

/** The keys of the run levels a read may sum by. */
export type RunRollupKey = 'project_id' | 'day' | (typeof AGENT_KEYS)[number] | (typeof PERSON_KEYS)[number];

/** Each run level key as a raw run `r` gives it: its own column, its UTC day, or its person. */
export const RAW_RUN_KEY: Readonly<Record<RunRollupKey, string>> = {
  project_id: 'r.project_id',
  day: 'substr(r.at, 1, 10)',
  provider: 'r.provider',
  role_id: 'r.role_id',
  model: 'r.model',
  member_id: "coalesce(r.member_id, '')",
  api_token_id: "case when r.initiator_type = 'apiToken' then r.initiator_id else '' end",
  service_account_id: "coalesce(r.service_account_id, '')",
};

export const RUN_LEVELS: readonly RollupLevel[] = [
  { table: 'usage_run_months', grain: 'month', keys: ['project_id'], from: 'usage_run_days' },
  { table: 'usage_run_agent_days', grain: 'day', keys: AGENT_KEYS, from: 'usage_run_days' },
  { table: 'usage_run_days', grain: 'day', keys: ['project_id', ...AGENT_KEYS] },
  { table: 'usage_run_person_months', grain: 'month', keys: PERSON_KEYS, from: 'usage_run_member_days' },
  {
    table: 'usage_run_member_months',
    grain: 'month',
    keys: [...PERSON_KEYS, 'project_id'],
    from: 'usage_run_member_days',
  },
  { table: 'usage_run_member_days', grain: 'day', keys: [...PERSON_KEYS, 'project_id'] },
];

export const FACT_LEVELS: readonly RollupLevel[] = [
  { table: 'usage_fact_org_months', grain: 'month', keys: ['kind', 'capability_id'], from: 'usage_fact_days' },
  {
    table: 'usage_fact_months',
    grain: 'month',
    keys: ['project_id', 'kind', 'capability_id'],
    from: 'usage_fact_days',
  },
  { table: 'usage_fact_days', grain: 'day', keys: ['project_id', ...AGENT_KEYS, 'kind', 'capability_id'] },
];

/** The sums each run level and fact level keeps. */
export const RUN_SUMS = ['run_count', 'runs_with_cost', 'input_tokens', 'output_tokens', 'cost_micros'] as const;
export const FACT_SUMS = ['fact_count', 'facts_with_cost', 'quantity', 'cost_micros'] as const;

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
