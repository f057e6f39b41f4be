import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Service accounts and the token policy (docs/service-accounts.md).
 *
 * - `users.kind`: `person` (everyone so far) or `service_account`. A service account is a user
 *   row, so team memberships, project grants and the organization membership that carries its
 *   role work as they do for people; sign-in, member lists and the `memberCount` seat leave
 *   `service_account` rows out.
 * - `service_accounts`: what only a service account has (its organization, description, who
 *   created it, disabled and deleted times), keyed by its user's id. A live name is unique in its
 *   organization (the console finds an account by it).
 * - `api_tokens`: `public_id` (in the token's text, kept across rotations; existing tokens get
 *   one here), `created_by` (who made the token: null for tokens made before, whose creator is
 *   their owner), the previous secret's hash and the end of its overlap after a rotation, and an
 *   index on `expires_at` for the sweep.
 * - `organization_settings.token_policy`: the policy as JSON; null keeps the defaults.
 * - `audit_events.actor_type` widens to 16 characters for `serviceAccount`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.string('kind', 16).notNullable().defaultTo('person');
  });
  await knex.schema.createTable('service_accounts', (t) => {
    t.string('id', 36).primary().references('id').inTable('users').onDelete('CASCADE');
    t.string('organization_id', 36).notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('description', 2000).nullable();
    t.string('created_by', 36).nullable().references('id').inTable('users').onDelete('SET NULL');
    t.string('created_at', 24).notNullable();
    t.string('disabled_at', 24).nullable();
    t.string('deleted_at', 24).nullable();
    t.index(['organization_id', 'created_at'], 'service_accounts_org_created_idx');
  });
  await knex.raw(
    'CREATE UNIQUE INDEX service_accounts_live_name_unique ON service_accounts (organization_id, name) ' +
      'WHERE deleted_at IS NULL',
  );
  await knex.schema.alterTable('api_tokens', (t) => {
    t.string('public_id', 32).nullable().unique('api_tokens_public_id_unique');
    t.string('created_by', 36).nullable().references('id').inTable('users').onDelete('SET NULL');
    t.string('previous_token_hash', 64).nullable().index('api_tokens_previous_hash_idx');
    t.string('previous_valid_until', 24).nullable();
    t.index(['expires_at'], 'api_tokens_expires_idx');
  });
  const ids = await knex('api_tokens').select<{ id: string }[]>('id');
  for (const { id } of ids) await knex('api_tokens').where({ id }).update({ public_id: newPublicId() });
  await knex.schema.alterTable('organization_settings', (t) => {
    t.text('token_policy').nullable();
  });
  if (knex.client.config.client === 'pg') {
    await knex.raw('ALTER TABLE audit_events ALTER COLUMN actor_type TYPE varchar(16)');
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    await knex('audit_events').where({ actor_type: 'serviceAccount' }).update({ actor_type: 'token' });
    await knex.raw('ALTER TABLE audit_events ALTER COLUMN actor_type TYPE varchar(8)');
  }
  await knex.schema.alterTable('organization_settings', (t) => {
    t.dropColumn('token_policy');
  });
  await knex.schema.alterTable('api_tokens', (t) => {
    t.dropIndex(['expires_at'], 'api_tokens_expires_idx');
    t.dropIndex(['previous_token_hash'], 'api_tokens_previous_hash_idx');
    t.dropUnique(['public_id'], 'api_tokens_public_id_unique');
    t.dropForeign(['created_by']);
  });
  await knex.schema.alterTable('api_tokens', (t) => {
    t.dropColumns('public_id', 'created_by', 'previous_token_hash', 'previous_valid_until');
  });
  await knex.raw('DROP INDEX service_accounts_live_name_unique');
  await knex.schema.dropTable('service_accounts');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('kind');
  });
}

/** 16 characters of lower-case RFC 4648 base32 (80 bits), as src/api-tokens/secret.ts makes them. */
function newPublicId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return [...randomBytes(16)].map((byte) => alphabet[byte & 31]).join('');
}
