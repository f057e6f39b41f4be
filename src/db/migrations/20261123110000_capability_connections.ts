import type { Knex } from 'knex';

/**
 * External-capability connections: the tools agents call (an MCP server, an HTTP API), one per
 * organization and `capability_id`, with credential versions sealed exactly like the provider
 * connections' (src/crypto/envelope.ts). The label, kind and endpoint are shown in lists and
 * stay readable; the headers an endpoint needs (API keys, bearer tokens) exist only inside the
 * envelopes, which seal the endpoint with them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('capability_connections', (t) => {
    t.string('id', 36).primary();
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('capability_id', 63).notNullable();
    t.string('label', 200).notNullable();
    t.string('kind', 8).notNullable(); // mcp | http
    t.string('endpoint_url', 2048).notNullable();
    t.string('status', 8).notNullable(); // DRAFT | ACTIVE | DISABLED
    t.integer('active_version').nullable();
    t.string('created_at', 24).notNullable();
    t.string('updated_at', 24).notNullable();
    t.unique(['organization_id', 'capability_id'], { indexName: 'capability_connections_org_capability_unique' });
  });
  await knex.schema.createTable('capability_connection_versions', (t) => {
    t.string('connection_id', 36).notNullable().references('id').inTable('capability_connections').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.string('key_id', 64).notNullable();
    for (const sealed of ['wrapped_key', 'wrap_iv', 'wrap_tag', 'iv', 'tag', 'ciphertext'])
      t.binary(sealed).notNullable();
    t.string('created_at', 24).notNullable();
    t.primary(['connection_id', 'version'], 'capability_connection_versions_pkey');
    t.index(['key_id'], 'capability_connection_versions_key_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('capability_connection_versions');
  await knex.schema.dropTable('capability_connections');
}
