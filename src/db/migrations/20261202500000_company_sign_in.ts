import type { Knex } from 'knex';

/**
 * An organization's own sign-in (docs/company-sign-in.md).
 *
 * - `identity_providers.organization_id`: the organization whose admins configured the provider;
 *   null for the operator's. Ids stay unique across the hub (the callback URL names only the id),
 *   so an organization's ids start with its slug. `groups_claim`, `mappings` (JSON array of
 *   `{group, teamId?, role?}`), `default_role` and `require_group` decide memberships at each
 *   sign-in through it.
 * - `memberships.origin`, `team_members.origin`: what made the row (`manual`, `invitation`,
 *   `console`, `autoJoin`, `idp:<providerId>`). A sign-in changes only rows of its own provider's
 *   origin. Rows made before this migration are `manual`: nothing told them apart, and manual rows
 *   are the ones a directory never touches.
 * - `organization_domains.enforce_sso_provider_id`: people with an address at the verified domain
 *   sign in only through this provider.
 * - `login_links.break_glass`: issued with `hub login-link --break-glass`, which passes enforcement.
 * - `pending_sign_ins (provider_id)`: an organization's admins remove providers, and the removal
 *   takes the provider's pending sign-ins with it by this key.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('identity_providers', (t) => {
    t.string('organization_id', 36).nullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('groups_claim', 64).notNullable().defaultTo('groups');
    t.text('mappings').notNullable().defaultTo('[]');
    t.string('default_role', 8).nullable();
    t.boolean('require_group').notNullable().defaultTo(false);
    t.index(['organization_id'], 'identity_providers_org_idx');
  });
  await knex.schema.alterTable('memberships', (t) => {
    t.string('origin', 80).notNullable().defaultTo('manual');
  });
  await knex.schema.alterTable('team_members', (t) => {
    t.string('origin', 80).notNullable().defaultTo('manual');
  });
  await knex.schema.alterTable('organization_domains', (t) => {
    t.string('enforce_sso_provider_id', 63).nullable();
    // Removing or disabling a provider asks whether a domain requires it.
    t.index(['enforce_sso_provider_id'], 'organization_domains_enforce_sso_idx');
  });
  await knex.schema.alterTable('login_links', (t) => {
    t.boolean('break_glass').notNullable().defaultTo(false);
  });
  await knex.schema.alterTable('pending_sign_ins', (t) => {
    t.index(['provider_id'], 'pending_sign_ins_provider_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('pending_sign_ins', (t) => {
    t.dropIndex(['provider_id'], 'pending_sign_ins_provider_idx');
  });
  await knex.schema.alterTable('login_links', (t) => {
    t.dropColumn('break_glass');
  });
  await knex.schema.alterTable('organization_domains', (t) => {
    t.dropIndex(['enforce_sso_provider_id'], 'organization_domains_enforce_sso_idx');
    t.dropColumn('enforce_sso_provider_id');
  });
  await knex.schema.alterTable('team_members', (t) => {
    t.dropColumn('origin');
  });
  await knex.schema.alterTable('memberships', (t) => {
    t.dropColumn('origin');
  });
  await knex.schema.alterTable('identity_providers', (t) => {
    t.dropIndex(['organization_id'], 'identity_providers_org_idx');
    t.dropForeign(['organization_id']);
    t.dropColumn('require_group');
    t.dropColumn('default_role');
    t.dropColumn('mappings');
    t.dropColumn('groups_claim');
    t.dropColumn('organization_id');
  });
}
