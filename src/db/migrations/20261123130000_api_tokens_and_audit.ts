import type { Knex } from 'knex';

/**
 * API tokens (a member's personal credential for integrations, kept as a SHA-256 only) and the
 * audit log (one event per state change of an organization, written in the change's own
 * transaction). Audit events carry an increasing `seq`, the key their cursors page by: a page
 * boundary stays put however many events are written meanwhile.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_tokens', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.text('scopes').notNullable(); // JSON array of "<area>:read|write"
    t.string('prefix', 12).notNullable();
    t.string('token_hash', 64).notNullable().unique('api_tokens_token_hash_unique');
    t.string('created_at', 24).notNullable();
    t.string('expires_at', 24).nullable();
    t.string('last_used_at', 24).nullable();
    t.string('revoked_at', 24).nullable();
    t.index(['organization_id', 'created_at', 'id'], 'api_tokens_org_created_idx');
  });
  await knex.schema.createTable('audit_events', (t) => {
    t.bigIncrements('seq');
    t.string('id', 36).notNullable().unique('audit_events_id_unique');
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('at', 24).notNullable();
    t.string('actor_type', 8).notNullable(); // user | token | console
    t.string('actor_id', 36).nullable();
    t.string('actor_display_name', 200).notNullable();
    t.string('action', 64).notNullable();
    t.string('target_type', 32).notNullable();
    t.string('target_id', 200).nullable();
    t.string('request_id', 64).nullable();
    t.text('changes').notNullable(); // JSON {before, after}, secrets redacted
    t.index(['organization_id', 'seq'], 'audit_events_org_seq_idx');
    t.index(['organization_id', 'target_type', 'target_id', 'seq'], 'audit_events_org_target_idx');
    t.index(['organization_id', 'actor_id', 'seq'], 'audit_events_org_actor_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_events');
  await knex.schema.dropTable('api_tokens');
}
