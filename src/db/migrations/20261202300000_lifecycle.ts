import type { Knex } from 'knex';

/**
 * The organization's life (docs/organization-lifecycle.md).
 *
 * - `organizations.deleted_at`, `organizations.purge_at`: set while the organization is being
 *   deleted (`status` DELETING), cleared by a restore; the purge removes the organization once
 *   `purge_at` has passed. `(status, purge_at)` makes "which are due" an index range.
 * - `organization_slug_redirects`: a slug an organization gave up by a rename, and until when it
 *   still leads to the organization (a 308 to the new path). A slug held here is not free for
 *   another organization meanwhile.
 * - `ownership_transfers`: an OWNER's offer of the OWNER role to a member, which that member
 *   accepts; at most one pending per organization (a partial unique index on both databases).
 * - `host_audit_events`: what the host did to organizations that are gone (their purge), kept
 *   beside the organizations' own logs, which the purge removes with them. It has no
 *   `organization_id` column on purpose: the purge removes every row that has one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organizations', (t) => {
    t.string('deleted_at', 24).nullable();
    t.string('purge_at', 24).nullable();
    t.index(['status', 'purge_at'], 'organizations_status_purge_idx');
  });
  await knex.schema.createTable('organization_slug_redirects', (t) => {
    t.string('slug', 63).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('expires_at', 24).notNullable();
    t.string('created_at', 24).notNullable();
    t.index(['organization_id'], 'organization_slug_redirects_org_idx');
  });
  await knex.schema.createTable('ownership_transfers', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('from_user_id', 36).notNullable().references('id').inTable('users');
    t.string('to_user_id', 36).notNullable().references('id').inTable('users');
    t.string('status', 16).notNullable(); // pending | accepted | cancelled
    t.string('created_at', 24).notNullable();
    t.string('decided_at', 24).nullable();
    t.index(['organization_id', 'created_at'], 'ownership_transfers_org_idx');
  });
  await knex.raw(
    'CREATE UNIQUE INDEX ownership_transfers_pending_unique ON ownership_transfers (organization_id) ' +
      "WHERE status = 'pending'",
  );
  await knex.schema.createTable('host_audit_events', (t) => {
    t.string('id', 36).primary();
    t.string('at', 24).notNullable();
    t.string('actor_type', 16).notNullable();
    t.string('actor_display_name', 200).notNullable();
    t.string('action', 100).notNullable();
    t.string('target_type', 50).notNullable();
    t.string('target_id', 36).nullable();
    t.string('target_label', 255).nullable();
    t.text('details').notNullable();
    t.index(['at'], 'host_audit_events_at_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('host_audit_events');
  await knex.schema.dropTable('ownership_transfers');
  await knex.schema.dropTable('organization_slug_redirects');
  await knex.schema.alterTable('organizations', (t) => {
    t.dropIndex(['status', 'purge_at'], 'organizations_status_purge_idx');
    t.dropColumn('purge_at');
    t.dropColumn('deleted_at');
  });
}
