import type { Knex } from 'knex';

/**
 * Users, organizations, memberships, organization settings, login sessions and one-time
 * login links. Timestamps are ISO-8601 UTC strings of fixed width (`toISOString()`), which
 * sort and compare the same way on SQLite and PostgreSQL.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.string('id', 36).primary();
    t.string('im_open_id', 128).notNullable().unique('users_im_open_id_unique');
    t.string('display_name', 200).notNullable();
    t.string('avatar_url', 2048).nullable();
    t.string('created_at', 24).notNullable();
  });

  await knex.schema.createTable('organizations', (t) => {
    t.string('id', 36).primary();
    t.string('slug', 63).notNullable().unique('organizations_slug_unique');
    t.string('name', 200).notNullable();
    t.string('status', 16).notNullable().defaultTo('ACTIVE');
    t.string('created_at', 24).notNullable();
  });

  // One row per organization, created with it; settings grow here, not on organizations.
  await knex.schema.createTable('organization_settings', (t) => {
    t.string('organization_id', 36).primary().references('id').inTable('organizations').onDelete('CASCADE');
    t.boolean('members_can_create_projects').notNullable().defaultTo(false);
    t.string('updated_at', 24).notNullable();
  });

  await knex.schema.createTable('memberships', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('role', 8).notNullable();
    t.string('created_at', 24).notNullable();
    t.string('revoked_at', 24).nullable();
    t.unique(['organization_id', 'user_id'], { indexName: 'memberships_org_user_unique' });
    t.index(['user_id'], 'memberships_user_idx');
  });

  await knex.schema.createTable('login_sessions', (t) => {
    t.string('id', 36).primary();
    t.string('token_hash', 64).notNullable().unique('login_sessions_token_hash_unique');
    t.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('created_at', 24).notNullable();
    t.string('last_seen_at', 24).notNullable();
    t.string('expires_at', 24).notNullable();
    t.index(['user_id'], 'login_sessions_user_idx');
  });

  await knex.schema.createTable('login_links', (t) => {
    t.string('token_hash', 64).primary();
    t.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('created_at', 24).notNullable();
    t.string('expires_at', 24).notNullable();
    t.string('used_at', 24).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('login_links');
  await knex.schema.dropTable('login_sessions');
  await knex.schema.dropTable('memberships');
  await knex.schema.dropTable('organization_settings');
  await knex.schema.dropTable('organizations');
  await knex.schema.dropTable('users');
}
