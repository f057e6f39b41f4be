import type { Knex } from 'knex';
import { isPostgres } from '../connect.js';

/** The agent keys a run now stores itself, with the lengths its session's columns have. */
const KEYS: Array<[string, number]> = [
  ['provider', 64],
  ['role_id', 64],
  ['model', 200],
];

/** A cost in whole micro-dollars, rounded half up (null for null), as each engine computes it. */
const costMicros = (knex: Knex, column: string) =>
  isPostgres(knex) ? `floor(${column} * 1000000 + 0.5)::bigint` : `cast(${column} * 1000000 + 0.5 as integer)`;

/**
 * Where a run's agent keys come from: its own columns (`r`), or its session's (`s`, as every level
 * was keyed before this migration and is again after its `down`).
 */
type AgentSource = { alias: 'r' | 's'; join: string };
const OWN: AgentSource = { alias: 'r', join: '' };
const SESSIONS: AgentSource = { alias: 's', join: ' inner join agent_sessions as s on s.id = r.session_id' };

/** Every run summed per organization, UTC day, project and agent keys. */
const runDays = (knex: Knex, { alias: a, join }: AgentSource) =>
  'insert into usage_run_days (organization_id, day, project_id, provider, role_id, model, ' +
  'run_count, runs_with_cost, input_tokens, output_tokens, cost_micros) ' +
  `select r.organization_id, substr(r.at, 1, 10), r.project_id, ${a}.provider, ${a}.role_id, ${a}.model, ` +
  'count(*), count(r.cost_usd), coalesce(sum(r.input_tokens), 0), coalesce(sum(r.output_tokens), 0), ' +
  `coalesce(sum(${costMicros(knex, 'r.cost_usd')}), 0) from runs as r${join} ` +
  `group by r.organization_id, substr(r.at, 1, 10), r.project_id, ${a}.provider, ${a}.role_id, ${a}.model`;

/** Every fact summed per organization, UTC day, project, its run's agent keys, kind and capability. */
const factDays = (knex: Knex, { alias: a, join }: AgentSource) =>
  'insert into usage_fact_days (organization_id, day, project_id, provider, role_id, model, kind, capability_id, ' +
  'fact_count, facts_with_cost, quantity, cost_micros) ' +
  `select f.organization_id, substr(f.at, 1, 10), f.project_id, ${a}.provider, ${a}.role_id, ${a}.model, f.kind, ` +
  "coalesce(f.capability_id, ''), count(*), count(f.cost_usd), coalesce(sum(f.quantity), 0), " +
  `coalesce(sum(${costMicros(knex, 'f.cost_usd')}), 0) ` +
  `from run_facts as f inner join runs as r on r.id = f.run_id${join} ` +
  `group by f.organization_id, substr(f.at, 1, 10), f.project_id, ${a}.provider, ${a}.role_id, ${a}.model, f.kind, ` +
  "coalesce(f.capability_id, '')";

/** The runs per day and agent, from the daily level. */
const RUN_AGENT_DAYS =
  'insert into usage_run_agent_days (organization_id, day, provider, role_id, model, ' +
  'run_count, runs_with_cost, input_tokens, output_tokens, cost_micros) ' +
  'select d.organization_id, d.day, d.provider, d.role_id, d.model, sum(d.run_count), sum(d.runs_with_cost), ' +
  'sum(d.input_tokens), sum(d.output_tokens), sum(d.cost_micros) from usage_run_days as d ' +
  'group by d.organization_id, d.day, d.provider, d.role_id, d.model';

/** The levels keyed by a run's agent, rebuilt from the raw rows (the agent days from the run days). */
async function rebuildAgentLevels(knex: Knex, source: AgentSource): Promise<void> {
  for (const table of ['usage_run_days', 'usage_fact_days', 'usage_run_agent_days']) await knex(table).delete();
  await knex.raw(runDays(knex, source));
  await knex.raw(factDays(knex, source));
  await knex.raw(RUN_AGENT_DAYS);
}

/**
 * Each run stores its own provider, role and model, as its run line gave them: a session's runs
 * may use several models, and the usage by model, provider or role charges each run to its own.
 * The session keeps the values of the run that started it, as its summary. The runs stored before
 * got their session's values (the only ones kept), and the levels keyed by the agent are rebuilt
 * from the runs' own columns, which then sum to what those levels held.
 */
export async function up(knex: Knex): Promise<void> {
  for (const [name, length] of KEYS) {
    await knex.raw(`alter table runs add column ${name} varchar(${length}) not null default ''`);
  }
  const set = KEYS.map(([name]) => `${name} = s.${name}`).join(', ');
  await knex.raw(`update runs set ${set} from agent_sessions as s where s.id = runs.session_id`);
  await rebuildAgentLevels(knex, OWN);
}

/** Drops the runs' agent keys; the levels keyed by the agent are keyed by the sessions' again. */
export async function down(knex: Knex): Promise<void> {
  await rebuildAgentLevels(knex, SESSIONS);
  for (const [name] of KEYS) await knex.raw(`alter table runs drop column ${name}`);
}
