import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/unit-of-work.js';

/** One person's identity at one provider, linked to a user. */
export interface UserIdentity {
  providerId: string;
  subject: string;
  userId: string;
  email: string | null;
  emailVerified: boolean;
}

/** One identity as its person sees it on their profile page. */
export interface ListedIdentity {
  id: string;
  providerId: string;
  providerLabel: string;
  email: string | null;
  createdAt: string;
  lastUsedAt: string;
}

interface ListedRecord {
  id: string;
  provider_id: string;
  label: string;
  email: string | null;
  created_at: string;
  last_sign_in_at: string;
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

  /** Creates the identity or refreshes it (email, last used); its id, kept from its first sign-in. */
  async record(db: Executor, identity: UserIdentity, at: string): Promise<string> {
    const columns = {
      user_id: identity.userId,
      email: identity.email,
      email_verified: identity.emailVerified,
      last_sign_in_at: at,
    };
    const key = { provider_id: identity.providerId, subject: identity.subject };
    await db('user_identities')
      .insert({ id: randomUUID(), ...key, ...columns, created_at: at })
      .onConflict(['provider_id', 'subject'])
      .merge(columns);
    const row = await db('user_identities').where(key).first<{ id: string }>('id');
    return row.id;
  }

  async hasIdentityAt(db: Executor, userId: string, providerId: string): Promise<boolean> {
    return (
      (await db('user_identities').where({ user_id: userId, provider_id: providerId }).first('subject')) !== undefined
    );
  }

  /** The addresses the user's providers gave as verified, each once. */
  async emailsOf(db: Executor, userId: string): Promise<string[]> {
    const rows = await db('user_identities')
      .where({ user_id: userId, email_verified: true })
      .whereNotNull('email')
      .distinct<{ email: string }[]>('email');
    return rows.map((row) => row.email);
  }

  /** The user's identities, oldest first (then by provider), each with its provider's label. */
  async listOfUser(db: Executor, userId: string): Promise<ListedIdentity[]> {
    const rows = await db('user_identities as i')
      .join('identity_providers as p', 'p.id', 'i.provider_id')
      .where({ 'i.user_id': userId })
      .orderBy([{ column: 'i.created_at' }, { column: 'i.provider_id' }, { column: 'i.subject' }])
      .select<ListedRecord[]>('i.id', 'i.provider_id', 'p.label', 'i.email', 'i.created_at', 'i.last_sign_in_at');
    return rows.map((row) => ({
      id: row.id,
      providerId: row.provider_id,
      providerLabel: row.label,
      email: row.email,
      createdAt: row.created_at,
      lastUsedAt: row.last_sign_in_at,
    }));
  }

  /** Removes one of the user's identities; false when the user has none with this id. */
  async remove(db: Executor, userId: string, id: string): Promise<boolean> {
    return (await db('user_identities').where({ id, user_id: userId }).delete()) === 1;
  }

  /**
   * Takes the user's row lock, so two removals of their last two identities are ordered and the
   * second sees that only one is left.
   */
  async lockUser(db: Executor, userId: string): Promise<void> {
    await db('users').where({ id: userId }).forUpdate().first('id');
  }

  /**
   * The name and avatar the provider gives, when it gives them; each sign-in refreshes them. The
   * first sign-in through any provider makes them the user's own everywhere (src/users/shown-profile.ts):
   * what the user row held before is dropped then, so a name an organization once gave is not
   * shown to the others when the provider gives none; a name the person gave themselves stays
   * until the provider gives one.
   */
  async refreshProfile(
    db: Executor,
    userId: string,
    profile: { displayName: string | undefined; avatarUrl: string | undefined },
    at: string,
  ): Promise<void> {
    const user = await db('users')
      .where({ id: userId })
      .first<{ im_open_id: string; profile_from_provider_at: string | null; display_name_source: string | null }>(
        'im_open_id',
        'profile_from_provider_at',
        'display_name_source',
      );
    const changes: Record<string, string | null> =
      user.profile_from_provider_at === null ? { profile_from_provider_at: at, avatar_url: null } : {};
    // A name the person gave themselves stays theirs until a provider gives one.
    if (user.profile_from_provider_at === null && user.display_name_source !== 'self')
      changes.display_name = user.im_open_id;
    if (profile.displayName !== undefined) {
      changes.display_name = profile.displayName;
      changes.display_name_source = 'provider';
    }
    if (profile.avatarUrl !== undefined) changes.avatar_url = profile.avatarUrl;
    if (Object.keys(changes).length) await db('users').where({ id: userId }).update(changes);
  }
}
