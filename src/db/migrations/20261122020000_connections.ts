import type { Knex } from 'knex';

/**
 * Provider connections (one per organization and provider) and the chat-application
 * connection (at most one per organization), each with its credential versions. A version
 * row is one sealed envelope: the AES-256-GCM ciphertext of the version's credentials under a
 * data key of its own, and that data key wrapped by the master key `key_id`. No column holds a
 * secret in plaintext; the non-secret identifiers a connection is looked up by stay readable.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('provider_connections', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('provider_id', 64).notNullable();
    t.string('mode', 16).notNullable(); // BYOK | PLATFORM_MANAGED
    t.string('status', 8).notNullable(); // DRAFT | ACTIVE | DISABLED
    t.integer('active_version').nullable();
    t.string('created_at', 24).notNullable();
    t.string('updated_at', 24).notNullable();
    t.unique(['organization_id', 'provider_id'], { indexName: 'provider_connections_org_provider_unique' });
  });
  await knex.schema.createTable('provider_connection_versions', (t) => {
    t.string('connection_id', 36).notNullable().references('id').inTable('provider_connections').onDelete('CASCADE');
    envelopeColumns(t);
    t.primary(['connection_id', 'version'], 'provider_connection_versions_pkey');
    t.index(['key_id'], 'provider_connection_versions_key_idx');
  });

  await knex.schema.createTable('chat_application_connections', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    // Identifiers, not secrets: inbound chat events are routed by them. The response shows
    // only a fingerprint of app_id.
    t.string('app_id', 256).notNullable();
    t.string('bot_open_id', 128).notNullable();
    t.string('status', 8).notNullable();
    t.integer('active_version').nullable();
    t.string('created_at', 24).notNullable();
    t.string('updated_at', 24).notNullable();
    t.unique(['organization_id'], { indexName: 'chat_application_connections_org_unique' });
  });
  await knex.schema.createTable('chat_application_connection_versions', (t) => {
    t.string('connection_id', 36)
      .notNullable()
      .references('id')
      .inTable('chat_application_connections')
      .onDelete('CASCADE');
    envelopeColumns(t);
    t.primary(['connection_id', 'version'], 'chat_application_connection_versions_pkey');
    t.index(['key_id'], 'chat_application_connection_versions_key_idx');
  });
}

/** The envelope of one credential version (see src/crypto/envelope.ts). */
function envelopeColumns(t: Knex.CreateTableBuilder): void {
  t.integer('version').notNullable();
  t.string('key_id', 64).notNullable();
  t.binary('wrapped_key').notNullable();
  t.binary('wrap_iv').notNullable();
  t.binary('wrap_tag').notNullable();
  t.binary('iv').notNullable();
  t.binary('tag').notNullable();
  t.binary('ciphertext').notNullable();
  t.string('created_at', 24).notNullable();
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'chat_application_connection_versions',
    'chat_application_connections',
    'provider_connection_versions',
    'provider_connections',
  ]) {
    await knex.schema.dropTable(table);
  }
}
