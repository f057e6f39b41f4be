import type { Knex } from 'knex';
import { isPostgres } from '../connect.js';

/** A cost in whole micro-dollars, rounded half up (null for null), as each engine computes it. */
const costMicros = (knex: Knex, column: string) =>
  isPostgres(knex) ? `floor(${column} * 1000000 + 0.5)::bigint` : `cast(${column} * 1000000 + 0.5 as integer)`;

/** An organization's runs summed per UTC day, project and session agent keys. */
const runDays = (knex: Knex) =>
  'insert into usage_run_days (organization_id, day, project_id, provider, role_id, model, ' +
  'run_count, runs_with_cost, input_tokens, output_tokens, cost_micros) ' +
  'select ? as organization_id, substr(r.at, 1, 10) as day, r.project_id, s.provider, s.role_id, s.model, ' +
  'count(*) as run_count, count(r.cost_usd) as runs_with_cost, ' +
  'coalesce(sum(r.input_tokens), 0) as input_tokens, coalesce(sum(r.output_tokens), 0) as output_tokens, ' +
  `coalesce(sum(${costMicros(knex, 'r.cost_usd')}), 0) as cost_micros ` +
  'from runs as r inner join agent_sessions as s on s.id = r.session_id where r.organization_id = ? ' +
  'group by substr(r.at, 1, 10), r.project_id, s.provider, s.role_id, s.model';

/** An organization's facts summed per UTC day, project, session agent keys, kind and capability. */
const factDays = (knex: Knex) =>
  'insert into usage_fact_days (organization_id, day, project_id, provider, role_id, model, kind, capability_id, ' +
  'fact_count, facts_with_cost, quantity, cost_micros) ' +
  'select ? as organization_id, substr(f.at, 1, 10) as day, f.project_id, s.provider, s.role_id, s.model, f.kind, ' +
  "coalesce(f.capability_id, '') as capability_id, count(*) as fact_count, count(f.cost_usd) as facts_with_cost, " +
  `coalesce(sum(f.quantity), 0) as quantity, coalesce(sum(${costMicros(knex, 'f.cost_usd')}), 0) as cost_micros ` +
  'from run_facts as f inner join runs as r on r.id = f.run_id ' +
  'inner join agent_sessions as s on s.id = r.session_id where f.organization_id = ? ' +
  "group by substr(f.at, 1, 10), coalesce(f.capability_id, ''), f.project_id, s.provider, s.role_id, s.model, f.kind";

/**
 * Daily rollups of runs and facts per organization, project, UTC day and the session's provider,
 * role and model (facts also per kind and capability; '' for no capability, so the key has no
 * null). Costs are whole micro-dollars, so sums of them are exact. The usage reads
 * sum whole days here and only a window's partial edge days from the raw rows; ingest adds to
 * them in its own transaction. Built here for the runs already stored.
 */
export async function up(knex: Knex): Promise<void> {
  const key = (t: Knex.CreateTableBuilder) => {
    t.string('organization_id', 36).notNullable();
    t.string('project_id', 36).notNullable();
    t.string('day', 10).notNullable();
    t.string('provider', 64).notNullable();
    t.string('role_id', 64).notNullable();
    t.string('model', 200).notNullable();
  };
  await knex.schema.createTable('usage_run_days', (t) => {
    key(t);
    t.bigInteger('run_count').notNullable();
    t.bigInteger('runs_with_cost').notNullable();
    t.bigInteger('input_tokens').notNullable();
    t.bigInteger('output_tokens').notNullable();
    t.bigInteger('cost_micros').notNullable();
    t.primary(['organization_id', 'day', 'project_id', 'provider', 'role_id', 'model'], 'usage_run_days_pkey');
  });
  await knex.schema.createTable('usage_fact_days', (t) => {
    key(t);
    t.string('kind', 16).notNullable();
    t.string('capability_id', 63).notNullable();
    t.bigInteger('fact_count').notNullable();
    t.bigInteger('facts_with_cost').notNullable();
    t.bigInteger('quantity').notNullable();
    t.bigInteger('cost_micros').notNullable();
    t.primary(
      ['organization_id', 'day', 'project_id', 'provider', 'role_id', 'model', 'kind', 'capability_id'],
      'usage_fact_days_pkey',
    );
  });
  const orgs = await knex('organizations').select<{ id: string }[]>('id');
  for (const { id } of orgs) {
    await knex.raw(runDays(knex), [id, id]);
    await knex.raw(factDays(knex), [id, id]);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('usage_fact_days');
  await knex.schema.dropTable('usage_run_days');
}
