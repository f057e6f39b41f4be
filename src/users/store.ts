import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/unit-of-work.js';

export interface User {
  id: string;
  imOpenId: string;
  displayName: string;
  avatarUrl: string | null;
  createdAt: string;
}

interface UserRecord {
  id: string;
  im_open_id: string;
  display_name: string;
  avatar_url: string | null;
  created_at: string;
}

export const toUser = (row: UserRecord): User => ({
  id: row.id,
  imOpenId: row.im_open_id,
  displayName: row.display_name,
  avatarUrl: row.avatar_url,
  createdAt: row.created_at,
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
    };
    await db('users').insert(row);
    return toUser(row);
  }
}
