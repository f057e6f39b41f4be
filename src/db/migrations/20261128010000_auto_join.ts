import type { Knex } from 'knex';

/**
 * Automatic membership (docs/decisions.md, "Automatic membership"): an organization's rule is kept
 * beside its other settings. `auto_join_provider_id` is a column of its own, indexed, so a sign-in
 * through one provider reads only the organizations whose rule names it; the rest of the rule
 * (email domains, tenant keys, role) is one JSON object in `auto_join`. Both null: off.
 *
 * Also an index on `invitations.email`: a signed-in person's pending invitations are found by the
 * verified email addresses of their identities, across organizations.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organization_settings', (t) => {
    t.string('auto_join_provider_id', 63).nullable();
    t.text('auto_join').nullable();
    t.index(['auto_join_provider_id'], 'organization_settings_auto_join_idx');
  });
  await knex.schema.alterTable('invitations', (t) => {
    t.index(['email'], 'invitations_email_idx');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invitations', (t) => {
    t.dropIndex(['email'], 'invitations_email_idx');
  });
  await knex.schema.alterTable('organization_settings', (t) => {
    t.dropIndex(['auto_join_provider_id'], 'organization_settings_auto_join_idx');
    t.dropColumn('auto_join');
    t.dropColumn('auto_join_provider_id');
  });
}
