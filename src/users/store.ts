import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/unit-of-work.js';

export interface User {
  id: string;
  imOpenId: string;
  displayName: string;
  avatarUrl: string | null;
  createdAt: string;
  /** Who gave `displayName`: an identity provider, the person (`updateMe`), or no one yet (the imOpenId). */
  displayNameSource: DisplayNameSource | null;
}

export type DisplayNameSource = 'provider' | 'self';

export interface UserRecord {
  id: string;
  im_open_id: string;
  display_name: string;
  avatar_url: string | null;
  created_at: string;
  display_name_source: DisplayNameSource | null;
}

export const toUser = (row: UserRecord): User => ({
  id: row.id,
  imOpenId: row.im_open_id,
  displayName: row.display_name,
  avatarUrl: row.avatar_url,
  createdAt: row.created_at,
  displayNameSource: row.display_name_source,
});

export class UserStore {
  async findById(db: Executor, id: string): Promise<User | undefined> {
    const row = await db<UserRecord>('users').where({ id }).first();
    return row && toUser(row);
  }

  /** Whether the user is a service account's (which never signs in and is no member). */
  async isServiceAccount(db: Executor, id: string): Promise<boolean> {
    const row = await db('users').where({ id }).first<{ kind: string } | undefined>('kind');
    return row?.kind === 'service_account';
  }

  async findByImOpenId(db: Executor, imOpenId: string): Promise<User | undefined> {
    const row = await db<UserRecord>('users').where({ im_open_id: imOpenId }).first();
    return row && toUser(row);
  }

  /**
   * Returns the user with this chat-platform id, creating it when it is new. A user's own name and
   * avatar (what `/me` shows the person) come only from an identity provider: a new user starts
   * with the imOpenId and none. A name or avatar an organization gives when adding someone is that
   * membership's (src/users/shown-profile.ts), never the user's.
   */
  async ensure(db: Executor, input: { imOpenId: string }, now: Date): Promise<User> {
    const existing = await this.findByImOpenId(db, input.imOpenId);
    return existing ?? this.insert(db, input.imOpenId, now);
  }

  /** A new user with this imOpenId, which the caller knows to be free. */
  async insert(db: Executor, imOpenId: string, now: Date): Promise<User> {
    const row: UserRecord = {
      id: randomUUID(),
      im_open_id: imOpenId,
      display_name: imOpenId,
      avatar_url: null,
      created_at: now.toISOString(),
      display_name_source: null,
    };
    await db('users').insert(row);
    return toUser(row);
  }

  /**
   * Sets the name the person gives themselves, unless an identity provider gives it (then
   * false and nothing changes): the condition is in the update, so a sign-in that just named
   * them wins.
   */
  async setOwnDisplayName(db: Executor, userId: string, displayName: string): Promise<boolean> {
    const updated = await db('users')
      .where({ id: userId })
      .where((q) => q.whereNull('display_name_source').orWhere('display_name_source', 'self'))
      .update({ display_name: displayName, display_name_source: 'self' });
    return updated === 1;
  }
}
