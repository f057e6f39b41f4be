import type { Knex } from 'knex';

/**
 * The agent runtime's API over HTTP (docs/runtime-api.md).
 *
 * - `usage_idempotency_keys`: the answer `ingestUsageRuns` gave a batch sent with an
 *   `Idempotency-Key`, with the SHA-256 of that batch's body, so a retry of the same batch answers
 *   it again instead of storing the runs twice. A key is one organization's; a row older than the
 *   replay window is ignored and replaced when the key comes again, and swept with the
 *   organization's next keyed batch.
 * - `runtime_credentials`: the host's platform runtime credentials (`hub runtime-credential`),
 *   which resolve connection credentials for the runtime. They are the host's, not an
 *   organization's (no `organization_id`): only the SHA-256 of each secret is kept.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('usage_idempotency_keys', (t) => {
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('idempotency_key', 255).notNullable();
    t.string('body_hash', 64).notNullable();
    t.text('answer').notNullable();
    t.string('created_at', 24).notNullable();
    t.primary(['organization_id', 'idempotency_key']);
    t.index(['organization_id', 'created_at'], 'usage_idempotency_keys_org_created_idx');
  });
  await knex.schema.createTable('runtime_credentials', (t) => {
    t.string('id', 36).primary();
    t.string('name', 200).notNullable();
    t.string('prefix', 12).notNullable();
    t.string('token_hash', 64).notNullable().unique('runtime_credentials_hash_unique');
    t.string('created_at', 24).notNullable();
    t.string('revoked_at', 24).nullable();
  });
  await knex.raw(
    'CREATE UNIQUE INDEX runtime_credentials_live_name_unique ON runtime_credentials (name) WHERE revoked_at IS NULL',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('runtime_credentials');
  await knex.schema.dropTable('usage_idempotency_keys');
}
