import type { Executor } from '../db/unit-of-work.js';

/** One person's identity at one provider, linked to a user. */
export interface UserIdentity {
  providerId: string;
  subject: string;
  userId: string;
  email: string | null;
  emailVerified: boolean;
}

/**
 * `user_identities`, and the user fields a sign-in refreshes from the provider. Owns those
 * statements; creating a user stays with the user store.
 */
export class UserIdentityStore {
  async findUserId(db: Executor, providerId: string, subject: string): Promise<string | undefined> {
    const row = await db('user_identities')
      .where({ provider_id: providerId, subject })
      .first<{ user_id: string } | undefined>('user_id');
    return row?.user_id;
  }

  async record(db: Executor, identity: UserIdentity, at: string): Promise<void> {
    const columns = {
      user_id: identity.userId,
      email: identity.email,
      email_verified: identity.emailVerified,
      last_sign_in_at: at,
    };
    await db('user_identities')
      .insert({ provider_id: identity.providerId, subject: identity.subject, ...columns, created_at: at })
      .onConflict(['provider_id', 'subject'])
      .merge(columns);
  }

  /**
   * The name and avatar the provider gives, when it gives them; each sign-in refreshes them. The
   * first sign-in through any provider makes them the user's own everywhere (src/users/shown-profile.ts):
   * what the user row held before is dropped then, so a name an organization once gave is not
   * shown to the others when the provider gives none.
   */
  async refreshProfile(
    db: Executor,
    userId: string,
    profile: { displayName: string | undefined; avatarUrl: string | undefined },
    at: string,
  ): Promise<void> {
    const user = await db('users')
      .where({ id: userId })
      .first<{ im_open_id: string; profile_from_provider_at: string | null }>('im_open_id', 'profile_from_provider_at');
    const changes: Record<string, string | null> =
      user.profile_from_provider_at === null
        ? { profile_from_provider_at: at, display_name: user.im_open_id, avatar_url: null }
        : {};
    if (profile.displayName !== undefined) changes.display_name = profile.displayName;
    if (profile.avatarUrl !== undefined) changes.avatar_url = profile.avatarUrl;
    if (Object.keys(changes).length) await db('users').where({ id: userId }).update(changes);
  }
}
