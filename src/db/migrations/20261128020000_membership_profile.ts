import type { Knex } from 'knex';

/**
 * A name and avatar an organization gives when adding someone belong to that organization
 * (src/users/shown-profile.ts):
 *
 * - `memberships.display_name`, `memberships.avatar_url`: what the organization gave, shown only
 *   there while the person has not signed in through an identity provider.
 * - `users.profile_from_provider_at`: when the person first signed in through one; from then on
 *   the user's own `display_name` and `avatar_url` (the provider's claims) are shown everywhere.
 *
 * Existing rows keep what every organization saw before: a user who has signed in through a
 * provider is marked so, and each membership of anyone else takes the user's current name and
 * avatar as its own.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('memberships', (t) => {
    t.string('display_name', 200).nullable();
    t.string('avatar_url', 2048).nullable();
  });
  await knex.schema.alterTable('users', (t) => {
    t.string('profile_from_provider_at', 24).nullable();
  });
  await knex('users')
    .whereExists(knex('user_identities as i').whereRaw('i.user_id = users.id'))
    .update({
      profile_from_provider_at: knex('user_identities as i').whereRaw('i.user_id = users.id').min('i.created_at'),
    });
  await knex('memberships')
    .whereExists(knex('users as u').whereRaw('u.id = memberships.user_id').whereNull('u.profile_from_provider_at'))
    .update({
      display_name: knex('users as u').whereRaw('u.id = memberships.user_id').select('u.display_name'),
      avatar_url: knex('users as u').whereRaw('u.id = memberships.user_id').select('u.avatar_url'),
    });
}

export async function down(knex: Knex): Promise<void> {
  // Plain ALTER TABLE on both engines: knex's SQLite dropColumn copies the table and drops the
  // original, and dropping `users` would cascade to every row that references a user.
  await knex.raw('alter table users drop column profile_from_provider_at');
  await knex.raw('alter table memberships drop column display_name');
  await knex.raw('alter table memberships drop column avatar_url');
}
