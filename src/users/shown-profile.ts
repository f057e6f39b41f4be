import type { Knex } from 'knex';
import type { Executor } from '../db/unit-of-work.js';

/**
 * Where a user's name and avatar come from, as one organization sees them. Until the person signs
 * in through an identity provider, a name or avatar belongs to the organization that gave it when
 * adding them: it is kept with that membership and shown only there, so no organization can plant
 * a name in another's lists. Once they have signed in (`users.profile_from_provider_at`), the
 * provider's claims on the user's row are their name and avatar everywhere. Before that, the
 * user's row holds only what the person sees of themselves (`/me`): it is never shown to an
 * organization, which sees its own name for them or else their imOpenId — unless the person gave
 * themselves a name (`users.display_name_source = 'self'`, set only by the person), which every
 * organization shows.
 *
 * `user` and `membership` are the aliases of `users` and of the organization's `memberships` row
 * in the query.
 */
export interface ProfileTables {
  user: string;
  membership: string;
}

/** The user's name as the organization of `membership` shows it, selected as `alias`. */
export const shownName = (db: Executor, tables: ProfileTables, alias = 'display_name'): Knex.Raw =>
  db.raw('case when ?? is null and ?? is null then coalesce(??, ??) else ?? end as ??', [
    `${tables.user}.profile_from_provider_at`,
    `${tables.user}.display_name_source`,
    `${tables.membership}.display_name`,
    `${tables.user}.im_open_id`,
    `${tables.user}.display_name`,
    alias,
  ]);

/** The user's avatar URL as the organization of `membership` shows it, selected as `alias`. */
export const shownAvatar = (db: Executor, tables: ProfileTables, alias = 'avatar_url'): Knex.Raw =>
  db.raw('case when ?? is null then ?? else ?? end as ??', [
    `${tables.user}.profile_from_provider_at`,
    `${tables.membership}.avatar_url`,
    `${tables.user}.avatar_url`,
    alias,
  ]);

/** What an organization gives when adding someone: its own name and avatar for them, if any. */
export interface MembershipProfile {
  displayName?: string | undefined;
  avatarUrl?: string | undefined;
}

/** The membership columns of a name and avatar an organization gives (null: none given). */
export const membershipProfileColumns = (profile: MembershipProfile) => ({
  display_name: profile.displayName?.trim() || null,
  avatar_url: profile.avatarUrl ?? null,
});
