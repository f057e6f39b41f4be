import type { Knex } from 'knex';

/**
 * Webhooks (docs/decisions.md, "Webhooks").
 *
 * - `webhooks`: an organization's endpoints. `events` is a JSON array of audit actions, `hub.*`,
 *   `budget.threshold` or `*`.
 * - `webhook_secrets`: each endpoint's signing secrets, one sealed envelope (src/crypto/envelope.ts)
 *   per version; no column holds a secret in plaintext. The current version has no `expires_at`;
 *   a rotated-out one signs beside it until its `expires_at`.
 * - `webhook_deliveries`: the outbox. A row is written in the transaction of the change it tells
 *   of, so a change that rolled back has none. A dispatcher claims a due `pending` row by setting
 *   `lease_until` and `lease_token` (on PostgreSQL under `FOR UPDATE SKIP LOCKED`); a row whose
 *   lease ran out while its instance died is due again. `message_id` is the `webhook-id` header,
 *   the same on every attempt.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhooks', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('url', 2048).notNullable();
    t.string('description', 500).notNullable();
    t.text('events').notNullable(); // JSON array of strings
    t.string('status', 16).notNullable(); // active | disabled
    t.string('disabled_reason', 200).nullable();
    t.integer('secret_version').notNullable();
    t.string('created_at', 24).notNullable();
    t.string('updated_at', 24).notNullable();
    t.index(['organization_id', 'created_at', 'id'], 'webhooks_org_created_idx');
  });

  await knex.schema.createTable('webhook_secrets', (t) => {
    t.string('webhook_id', 36).notNullable().references('id').inTable('webhooks').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.string('key_id', 64).notNullable();
    t.binary('wrapped_key').notNullable();
    t.binary('wrap_iv').notNullable();
    t.binary('wrap_tag').notNullable();
    t.binary('iv').notNullable();
    t.binary('tag').notNullable();
    t.binary('ciphertext').notNullable();
    t.string('created_at', 24).notNullable();
    t.string('expires_at', 24).nullable();
    t.primary(['webhook_id', 'version'], 'webhook_secrets_pkey');
    t.index(['key_id'], 'webhook_secrets_key_idx');
  });

  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('webhook_id', 36).notNullable().references('id').inTable('webhooks').onDelete('CASCADE');
    t.string('message_id', 64).notNullable();
    t.string('event', 64).notNullable();
    t.text('payload').notNullable(); // the JSON body sent
    t.string('status', 16).notNullable(); // pending | delivered | failed
    t.integer('attempt').notNullable();
    t.string('next_attempt_at', 24).nullable();
    t.string('lease_until', 24).nullable();
    t.string('lease_token', 36).nullable();
    t.integer('status_code').nullable();
    t.integer('duration_ms').nullable();
    t.text('answer').nullable();
    t.string('error', 200).nullable();
    t.string('created_at', 24).notNullable();
    t.string('completed_at', 24).nullable();
    t.index(['webhook_id', 'created_at', 'id'], 'webhook_deliveries_webhook_created_idx');
    t.index(['status', 'next_attempt_at'], 'webhook_deliveries_due_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhook_secrets');
  await knex.schema.dropTable('webhooks');
}
