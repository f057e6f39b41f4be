import type { Knex } from 'knex';
import { rebuildNarrowRollups } from '../../usage/rollups.js';

/**
 * The narrow levels of the usage rollups (src/usage/rollup-levels.ts): runs per project and UTC
 * month, runs per UTC day and agent (provider, role, model), facts per project, kind and
 * capability and UTC month, and facts per kind and capability and UTC month. A year's report or
 * breakdown then reads thousands of rows instead of the daily levels' hundreds of thousands.
 * Built here from the daily levels.
 */
export async function up(knex: Knex): Promise<void> {
  const sums = (t: Knex.CreateTableBuilder, names: string[]) => {
    for (const name of names) t.bigInteger(name).notNullable();
  };
  const runSums = ['run_count', 'runs_with_cost', 'input_tokens', 'output_tokens', 'cost_micros'];
  const factSums = ['fact_count', 'facts_with_cost', 'quantity', 'cost_micros'];
  await knex.schema.createTable('usage_run_months', (t) => {
    t.string('organization_id', 36).notNullable();
    t.string('month', 7).notNullable();
    t.string('project_id', 36).notNullable();
    sums(t, runSums);
    t.primary(['organization_id', 'month', 'project_id'], 'usage_run_months_pkey');
  });
  await knex.schema.createTable('usage_run_agent_days', (t) => {
    t.string('organization_id', 36).notNullable();
    t.string('day', 10).notNullable();
    t.string('provider', 64).notNullable();
    t.string('role_id', 64).notNullable();
    t.string('model', 200).notNullable();
    sums(t, runSums);
    t.primary(['organization_id', 'day', 'provider', 'role_id', 'model'], 'usage_run_agent_days_pkey');
  });
  await knex.schema.createTable('usage_fact_months', (t) => {
    t.string('organization_id', 36).notNullable();
    t.string('month', 7).notNullable();
    t.string('project_id', 36).notNullable();
    t.string('kind', 16).notNullable();
    t.string('capability_id', 63).notNullable();
    sums(t, factSums);
    t.primary(['organization_id', 'month', 'project_id', 'kind', 'capability_id'], 'usage_fact_months_pkey');
  });
  await knex.schema.createTable('usage_fact_org_months', (t) => {
    t.string('organization_id', 36).notNullable();
    t.string('month', 7).notNullable();
    t.string('kind', 16).notNullable();
    t.string('capability_id', 63).notNullable();
    sums(t, factSums);
    t.primary(['organization_id', 'month', 'kind', 'capability_id'], 'usage_fact_org_months_pkey');
  });
  const orgs = await knex('organizations').select<{ id: string }[]>('id');
  for (const { id } of orgs) await rebuildNarrowRollups(knex, id);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['usage_fact_org_months', 'usage_fact_months', 'usage_run_agent_days', 'usage_run_months']) {
    await knex.schema.dropTable(table);
  }
}
