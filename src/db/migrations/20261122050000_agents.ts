import type { Knex } from 'knex';

/**
 * Agent roles, agent skills and which skills each role uses. A skill row names the content
 * address of its files in the skill store on disk (`<data>/skills/<digest>`); the store entry
 * is written and renamed into place before the row that names it is committed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('agent_roles', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('role_id', 64).notNullable();
    t.string('label', 200).notNullable();
    t.string('default_model', 200).nullable();
    t.text('system_prompt').nullable();
    t.text('tools').nullable(); // JSON array of tool names, or null for the runtime's defaults
    t.integer('sort_order').notNullable().defaultTo(0);
    t.boolean('is_default').notNullable().defaultTo(false);
    t.string('disabled_at', 24).nullable();
    t.string('created_at', 24).notNullable();
    t.string('updated_at', 24).notNullable();
    t.unique(['organization_id', 'role_id'], { indexName: 'agent_roles_org_role_unique' });
  });
  // At most one default role per organization.
  await knex.raw(
    'create unique index agent_roles_one_default on agent_roles (organization_id) where is_default = true',
  );

  await knex.schema.createTable('agent_skills', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('name', 64).notNullable();
    t.string('version', 200).notNullable();
    t.string('description', 2000).nullable();
    t.string('content_digest', 64).notNullable();
    t.string('disabled_at', 24).nullable();
    t.string('created_at', 24).notNullable();
    t.string('updated_at', 24).notNullable();
    t.unique(['organization_id', 'name'], { indexName: 'agent_skills_org_name_unique' });
    t.index(['content_digest'], 'agent_skills_digest_idx');
  });

  await knex.schema.createTable('agent_role_skills', (t) => {
    t.string('role_id', 36).notNullable().references('id').inTable('agent_roles').onDelete('CASCADE');
    t.string('skill_id', 36).notNullable().references('id').inTable('agent_skills').onDelete('CASCADE');
    t.string('created_at', 24).notNullable();
    t.primary(['role_id', 'skill_id'], 'agent_role_skills_pk');
    t.index(['skill_id'], 'agent_role_skills_skill_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('agent_role_skills');
  await knex.schema.dropTable('agent_skills');
  await knex.schema.dropTable('agent_roles');
}
