import type { Knex } from 'knex';

/**
 * Sessions a person can see and end, a name they give themselves, and access requests
 * (docs/sessions-and-access.md).
 *
 * - `login_sessions.user_agent`, `.address`: the browser and client address the session was last
 *   seen from (null until its first authenticated request), for the person's list of sessions.
 * - `users.display_name_source`: `provider` once an identity provider gave the name, `self` once
 *   the person chose one; null while the name is still their imOpenId.
 * - `access_requests`: a member's request for a grant on a project, with its decision. One pending
 *   request per person and project: a partial unique index, which both databases enforce.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('login_sessions', (t) => {
    t.string('user_agent', 512).nullable();
    t.string('address', 64).nullable();
  });
  await knex.schema.alterTable('users', (t) => {
    t.string('display_name_source', 16).nullable();
  });
  // A provider that gave no name left the imOpenId: such a person may still name themselves.
  await knex('users')
    .whereNotNull('profile_from_provider_at')
    .whereRaw('display_name <> im_open_id')
    .update({ display_name_source: 'provider' });
  await knex.schema.createTable('access_requests', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('requester_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('level', 16).notNullable(); // READ | EDIT | MANAGE
    t.string('reason', 1000).notNullable();
    t.string('status', 16).notNullable(); // pending | approved | denied | expired | withdrawn
    t.string('created_at', 24).notNullable();
    t.string('expires_at', 24).notNullable();
    t.string('decided_at', 24).nullable();
    t.string('decided_by', 36).nullable().references('id').inTable('users').onDelete('SET NULL');
    t.string('granted_level', 16).nullable();
    t.index(['organization_id', 'project_id', 'status'], 'access_requests_project_idx');
    t.index(['requester_id', 'created_at'], 'access_requests_requester_idx');
  });
  await knex.raw(
    'CREATE UNIQUE INDEX access_requests_pending_unique ON access_requests (project_id, requester_id) ' +
      "WHERE status = 'pending'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('access_requests');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('display_name_source');
  });
  await knex.schema.alterTable('login_sessions', (t) => {
    t.dropColumn('address');
    t.dropColumn('user_agent');
  });
}
