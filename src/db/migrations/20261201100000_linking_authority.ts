import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * One provider speaks for the imOpenId namespace (docs/connected-sign-ins.md).
 *
 * - `identity_providers.links_im_open_id`: the provider whose first sign-in of a subject joins the
 *   user whose `imOpenId` is that subject. A partial unique index keeps it to one enabled provider.
 *   Existing deployments keep linking through the provider that most plainly speaks for the chat
 *   platform's ids: the one enabled lark provider when there is exactly one, else the only enabled
 *   provider when there is exactly one, else none (the operator chooses with `set
 *   --links-im-open-id`).
 * - `user_identities.id`: how the person names one of their identities (`/api/me/identities/{id}`).
 *   `last_sign_in_at` is already stamped at each sign-in; it is the identity's "last used".
 * - `pending_sign_ins.link_user_id`: a sign-in started from a session to connect one more identity
 *   to that session's user (`/auth/{id}/start?link=1`).
 * - A user who never signed in through a provider shows themselves their imOpenId and no avatar:
 *   a name or avatar an organization gave when adding them stays with that membership only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('identity_providers', (t) => {
    t.boolean('links_im_open_id').notNullable().defaultTo(false);
  });
  await knex.raw(
    'create unique index identity_providers_links_im_open_id_unique on identity_providers (links_im_open_id) ' +
      'where links_im_open_id and disabled_at is null',
  );
  const enabled = await knex('identity_providers')
    .whereNull('disabled_at')
    .orderBy('created_at')
    .select<Array<{ id: string; kind: string }>>('id', 'kind');
  const lark = enabled.filter((p) => p.kind === 'lark');
  const holder = lark.length === 1 ? lark[0] : lark.length === 0 && enabled.length === 1 ? enabled[0] : undefined;
  if (holder) await knex('identity_providers').where({ id: holder.id }).update({ links_im_open_id: true });

  await knex.schema.alterTable('user_identities', (t) => {
    t.string('id', 36).nullable();
  });
  const identities = await knex('user_identities').select<Array<{ provider_id: string; subject: string }>>(
    'provider_id',
    'subject',
  );
  for (const row of identities) await knex('user_identities').where(row).update({ id: randomUUID() });
  await knex.schema.alterTable('user_identities', (t) => {
    t.unique(['id'], { indexName: 'user_identities_id_unique' });
  });

  await knex.schema.alterTable('pending_sign_ins', (t) => {
    t.string('link_user_id', 36).nullable();
  });

  await knex('users')
    .whereNull('profile_from_provider_at')
    .update({ display_name: knex.ref('im_open_id'), avatar_url: null });
}

export async function down(knex: Knex): Promise<void> {
  // Plain ALTER TABLE on both engines (see 20261128020000_membership_profile.ts).
  await knex.raw('drop index identity_providers_links_im_open_id_unique');
  await knex.raw('alter table identity_providers drop column links_im_open_id');
  await knex.schema.alterTable('user_identities', (t) => {
    t.dropUnique(['id'], 'user_identities_id_unique');
  });
  await knex.raw('alter table user_identities drop column id');
  await knex.raw('alter table pending_sign_ins drop column link_user_id');
}
