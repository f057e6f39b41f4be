import type { Knex } from 'knex';

/**
 * Organization capacity limits: one row per organization and dimension the organization has
 * limited. No row means no organization limit (the platform ceiling applies). Ceilings are not
 * stored: they come from the environment at start-up.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('organization_capacity_limits', (t) => {
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('dimension', 32).notNullable();
    t.double('limit_value').notNullable();
    t.string('updated_at', 24).notNullable();
    // The string form: knex's SQLite create-table path mishandles the options-object form.
    t.primary(['organization_id', 'dimension'], 'organization_capacity_limits_pkey');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('organization_capacity_limits');
}
