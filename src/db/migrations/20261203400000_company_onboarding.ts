import type { Knex } from 'knex';

/**
 * - `organization_pending_owners`: an organization the host console created for an owner who has not signed in yet
 * (`hub org create --owner-email E --provider P`, docs/company-sign-in.md): the first sign-in
 * through `provider_id` whose verified address is `email` makes that person its OWNER and removes
 * the row. One per organization; the organization's purge removes it by `organization_id`.
 * - `pending_sign_ins.test_organization_id`: a test sign-in an org admin started from Settings →
 *   Sign-in (`testOrgIdentityProvider`); its callback reports the claims and signs nobody in.
 *   No foreign key: the row lives ten minutes and belongs to no organization's data.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('organization_pending_owners', (t) => {
    t.string('organization_id', 36).primary().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('email', 320).notNullable();
    t.string('provider_id', 63).notNullable();
    t.string('created_at', 24).notNullable();
    // Each sign-in asks whether its provider and address name a pending owner.
    t.index(['provider_id', 'email'], 'organization_pending_owners_sign_in_idx');
  });
  await knex.schema.alterTable('pending_sign_ins', (t) => {
    t.string('test_organization_id', 36).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('pending_sign_ins', (t) => {
    t.dropColumn('test_organization_id');
  });
  await knex.schema.dropTable('organization_pending_owners');
}
