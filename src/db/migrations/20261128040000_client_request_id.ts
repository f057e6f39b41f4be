import type { Knex } from 'knex';

/**
 * `audit_events.client_request_id`: the `X-Request-Id` the caller sent, kept beside the server's
 * own id (`request_id`). The caller's id can be forged or reused, and webhooks carry an event to
 * other systems, so `request_id` holds only ids the server made. Existing rows keep what they
 * have: which of their ids came from a caller is not known.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_events', (t) => {
    t.string('client_request_id', 64).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  // Plain ALTER TABLE on both engines: knex's SQLite dropColumn copies the table and drops it.
  await knex.raw('alter table audit_events drop column client_request_id');
}
