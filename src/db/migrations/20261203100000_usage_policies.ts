import type { Knex } from 'knex';

/**
 * Usage policies (docs/policies-and-admission.md): what models, providers and capabilities the
 * runs under a scope may use. One policy per scope: `scope_id` is the folder, project or team, and
 * the empty text for the organization's own, so one unique index holds on both engines (a null
 * would never collide). `allow` is the JSON the API shows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('usage_policies', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('scope_type', 16).notNullable(); // organization | folder | project | team
    t.string('scope_id', 36).notNullable();
    t.text('allow').notNullable();
    t.string('created_at', 24).notNullable();
    t.string('updated_at', 24).notNullable();
    t.unique(['organization_id', 'scope_type', 'scope_id'], { indexName: 'usage_policies_scope_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('usage_policies');
}
