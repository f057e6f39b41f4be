import type { Knex } from 'knex';

/**
 * Teams, folders, projects, chat bindings, permission grants, agent sessions and runs.
 * "Active" rows are those whose archived_at/revoked_at is null; uniqueness that only holds
 * among active rows is a partial unique index, which SQLite and PostgreSQL both support.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('teams', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('slug', 63).notNullable();
    t.string('name', 200).notNullable();
    t.string('description', 2000).nullable();
    t.string('created_at', 24).notNullable();
    t.string('archived_at', 24).nullable();
  });
  await knex.raw(
    'create unique index teams_active_slug_unique on teams (organization_id, slug) where archived_at is null',
  );

  await knex.schema.createTable('team_members', (t) => {
    t.string('id', 36).primary();
    t.string('team_id', 36).notNullable().references('id').inTable('teams').onDelete('CASCADE');
    t.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('created_at', 24).notNullable();
    t.string('revoked_at', 24).nullable();
    t.index(['user_id'], 'team_members_user_idx');
  });
  await knex.raw(
    'create unique index team_members_active_unique on team_members (team_id, user_id) where revoked_at is null',
  );

  await knex.schema.createTable('folders', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('parent_id', 36).nullable().references('id').inTable('folders');
    t.string('name', 200).notNullable();
    t.string('sort_key', 200).notNullable();
    t.string('created_at', 24).notNullable();
    t.string('archived_at', 24).nullable();
    t.index(['organization_id', 'parent_id'], 'folders_org_parent_idx');
  });

  await knex.schema.createTable('projects', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('folder_id', 36).nullable().references('id').inTable('folders');
    t.string('name', 200).notNullable();
    t.string('workspace_dir', 1024).notNullable();
    t.string('created_by', 36).nullable().references('id').inTable('users').onDelete('SET NULL');
    t.string('created_at', 24).notNullable();
    t.string('archived_at', 24).nullable();
    t.index(['organization_id', 'folder_id'], 'projects_org_folder_idx');
  });

  await knex.schema.createTable('project_bindings', (t) => {
    t.string('id', 36).primary();
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('chat_id', 200).notNullable();
    t.string('created_at', 24).notNullable();
    t.string('archived_at', 24).nullable();
  });
  // A project has at most one live chat, and a chat feeds at most one project.
  await knex.raw(
    'create unique index project_bindings_active_project_unique on project_bindings (project_id) where archived_at ' +
      'is null',
  );
  await knex.raw(
    'create unique index project_bindings_active_chat_unique on project_bindings (chat_id) where archived_at is null',
  );

  await knex.schema.createTable('project_grants', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('principal_type', 8).notNullable(); // USER | TEAM
    t.string('principal_id', 36).notNullable();
    t.string('role', 8).notNullable(); // READ | EDIT | MANAGE
    t.string('created_at', 24).notNullable();
    t.string('updated_at', 24).notNullable();
    t.unique(['project_id', 'principal_type', 'principal_id'], { indexName: 'project_grants_principal_unique' });
    t.index(['principal_type', 'principal_id'], 'project_grants_principal_idx');
  });

  await knex.schema.createTable('agent_sessions', (t) => {
    t.string('id', 64).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('provider', 64).notNullable();
    t.string('role_id', 64).notNullable();
    t.string('model', 200).notNullable();
    t.string('title', 500).nullable();
    t.integer('run_count').notNullable().defaultTo(0);
    t.string('created_at', 24).notNullable();
    t.string('updated_at', 24).notNullable();
    t.string('archived_at', 24).nullable();
    t.index(['project_id', 'updated_at'], 'agent_sessions_project_updated_idx');
    t.index(['organization_id', 'role_id'], 'agent_sessions_org_role_idx');
  });

  await knex.schema.createTable('runs', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('session_id', 64).notNullable().references('id').inTable('agent_sessions').onDelete('CASCADE');
    t.string('at', 24).notNullable();
    t.bigInteger('input_tokens').notNullable();
    t.bigInteger('output_tokens').notNullable();
    t.double('cost_usd').nullable();
    t.index(['organization_id', 'at'], 'runs_org_at_idx');
    t.index(['project_id', 'at'], 'runs_project_at_idx');
    t.index(['session_id'], 'runs_session_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'runs',
    'agent_sessions',
    'project_grants',
    'project_bindings',
    'projects',
    'folders',
    'team_members',
    'teams',
  ]) {
    await knex.schema.dropTable(table);
  }
}
