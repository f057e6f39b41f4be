import type { Knex } from 'knex';

/**
 * Invitations (docs/decisions.md, "Invitations by link"). A link's token is never stored: only
 * its SHA-256 (`token_hash`), unique, by which an accept finds the row. `status` holds what was
 * decided (pending, accepted, revoked); `expired` is a pending row past `expires_at`, derived
 * when read, so an invitation never changes state by itself and is never silently gone.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('invitations', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique('invitations_token_hash_unique');
    t.string('role', 16).notNullable();
    t.text('team_ids').notNullable(); // JSON array of team ids
    t.string('email', 320).nullable();
    t.string('status', 16).notNullable(); // pending | accepted | revoked
    t.string('created_by', 36).nullable().references('id').inTable('users').onDelete('SET NULL');
    t.string('created_at', 24).notNullable();
    t.string('expires_at', 24).notNullable();
    t.string('accepted_by', 36).nullable().references('id').inTable('users').onDelete('SET NULL');
    t.string('accepted_at', 24).nullable();
    t.string('revoked_at', 24).nullable();
    t.index(['organization_id', 'created_at', 'id'], 'invitations_org_created_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('invitations');
}
