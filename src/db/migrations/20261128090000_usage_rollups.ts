import type { Knex } from 'knex';
import { rebuildDailyRollups } from '../../usage/rollups.js';

/**
 * Daily rollups of runs and facts per organization, project, UTC day and the session's provider,
 * role and model (facts also per kind and capability; '' for no capability, so the key has no
 * null). Costs are whole micro-dollars (cost-micros.ts), so sums of them are exact. The usage reads
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
  for (const { id } of orgs) await rebuildDailyRollups(knex, id);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('usage_fact_days');
  await knex.schema.dropTable('usage_run_days');
}
