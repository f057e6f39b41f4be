import type { Knex } from 'knex';

/**
 * Usage facts: what one agent run consumed, itemized (`model` tokens, `tool` calls, `capability`
 * calls of an external capability), each with its cost in USD or null. A fact repeats its run's
 * organization, project and time, so the breakdown filters and sums facts alone, never joining
 * the runs. The covering index holds every column the breakdown reads, in (organization,
 * project, time) order: the whole-organization, windowed and project/folder-filtered breakdowns
 * are index-only scans, like the usage report's over runs.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('run_facts', (t) => {
    t.string('run_id', 36).notNullable().references('id').inTable('runs').onDelete('CASCADE');
    t.integer('ordinal').notNullable();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('at', 24).notNullable();
    t.string('kind', 16).notNullable(); // model | tool | capability
    t.string('capability_id', 63).nullable();
    t.bigInteger('quantity').notNullable();
    t.string('unit', 16).notNullable(); // tokens | calls
    t.double('cost_usd').nullable();
    t.primary(['run_id', 'ordinal'], 'run_facts_pkey');
  });
  await knex.raw(
    'create index run_facts_org_project_cover_idx on run_facts (organization_id, project_id, at, kind, ' +
      'capability_id, quantity, cost_usd)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index run_facts_org_project_cover_idx');
  await knex.schema.dropTable('run_facts');
}
