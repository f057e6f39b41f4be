import type { Knex } from 'knex';

/**
 * Sign-in with identity providers (docs/decisions.md, "Sign-in with identity providers").
 *
 * - `identity_providers`: what the operator configured with `hub identity-provider set`. The
 *   client secret is one sealed envelope (src/crypto/envelope.ts) per row, bound to the provider
 *   and `secret_version`, which each `set` increments; no column holds it in plaintext.
 * - `user_identities`: who signed in through which provider, one row per (provider, subject).
 * - `pending_sign_ins`: a sign-in between its start and its callback, kept in the database so the
 *   callback may reach another instance. Only hashes of the `state` and of the browser's
 *   `hub_signin` cookie are stored; the PKCE verifier is derived from that cookie, never stored.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('identity_providers', (t) => {
    t.string('id', 63).primary();
    t.string('kind', 8).notNullable(); // oidc | lark
    t.string('label', 200).notNullable();
    // The OpenID issuer (oidc), or the platform's API base URL (lark).
    t.string('endpoint', 2048).notNullable();
    t.string('client_id', 512).notNullable();
    t.string('subject_claim', 64).notNullable();
    t.string('token_auth', 32).notNullable(); // client_secret_basic | client_secret_post
    t.text('allowed_tenants').notNullable(); // JSON array of strings; empty: any tenant (oidc only)
    t.text('allowed_email_domains').notNullable(); // JSON array of strings; empty: any domain
    t.integer('secret_version').notNullable();
    t.string('key_id', 64).notNullable();
    t.binary('wrapped_key').notNullable();
    t.binary('wrap_iv').notNullable();
    t.binary('wrap_tag').notNullable();
    t.binary('iv').notNullable();
    t.binary('tag').notNullable();
    t.binary('ciphertext').notNullable();
    t.string('disabled_at', 24).nullable();
    t.string('created_at', 24).notNullable();
    t.string('updated_at', 24).notNullable();
    t.index(['key_id'], 'identity_providers_key_idx');
  });

  await knex.schema.createTable('user_identities', (t) => {
    t.string('provider_id', 63).notNullable().references('id').inTable('identity_providers').onDelete('CASCADE');
    t.string('subject', 255).notNullable();
    t.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('email', 320).nullable();
    t.boolean('email_verified').notNullable();
    t.string('created_at', 24).notNullable();
    t.string('last_sign_in_at', 24).notNullable();
    t.primary(['provider_id', 'subject'], 'user_identities_pkey');
    t.index(['user_id'], 'user_identities_user_idx');
  });

  await knex.schema.createTable('pending_sign_ins', (t) => {
    t.string('state_hash', 64).primary();
    t.string('browser_hash', 64).notNullable();
    t.string('provider_id', 63).notNullable().references('id').inTable('identity_providers').onDelete('CASCADE');
    t.string('nonce', 64).notNullable();
    t.string('return_to', 2048).notNullable();
    t.string('created_at', 24).notNullable();
    t.string('expires_at', 24).notNullable();
    t.index(['expires_at'], 'pending_sign_ins_expires_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('pending_sign_ins');
  await knex.schema.dropTable('user_identities');
  await knex.schema.dropTable('identity_providers');
}
