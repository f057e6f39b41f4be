import type { Knex } from 'knex';

/**
 * The agent library: an organization-scoped folder tree that groups agent roles and skills,
 * with the same columns as the project folders (`folders`), and the folder each role and skill
 * sits in (null: the library's root).
 *
 * `library_folder_id` carries no foreign key: SQLite can add a referencing column but not drop
 * one again (the `down`), and nothing needs the constraint, since folders are archived, never
 * deleted, and a folder holding a role or skill cannot be archived.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('library_folders', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('parent_id', 36).nullable().references('id').inTable('library_folders');
    t.string('name', 200).notNullable();
    t.string('sort_key', 200).notNullable();
    t.string('created_at', 24).notNullable();
    t.string('archived_at', 24).nullable();
    t.index(['organization_id', 'parent_id'], 'library_folders_org_parent_idx');
  });
  for (const table of ['agent_roles', 'agent_skills']) {
    await knex.schema.alterTable(table, (t) => {
      t.string('library_folder_id', 36).nullable();
    });
    await knex.raw(
      `create index ${table}_library_folder_idx on ${table} (library_folder_id) where library_folder_id is not null`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['agent_skills', 'agent_roles']) {
    await knex.raw(`drop index ${table}_library_folder_idx`);
    await knex.raw(`alter table ${table} drop column library_folder_id`);
  }
  await knex.schema.dropTable('library_folders');
}
