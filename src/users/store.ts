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

  async findByImOpenId(db: Executor, imOpenId: string): Promise<User | undefined> {
    const row = await db<UserRecord>('users').where({ im_open_id: imOpenId }).first();
    return row && toUser(row);
  }

  /**
   * Returns the user with this chat-platform id, creating it when it is new. A new user's own name
   * and avatar (what `/me` shows the person) start as the ones given, else the imOpenId and none;
   * an existing user is returned as it is. Organizations never see these before the person signs
   * in through an identity provider: each sees the name it gave itself (src/users/shown-profile.ts).
   */
  async ensure(
    db: Executor,
    input: { imOpenId: string; displayName?: string | undefined; avatarUrl?: string | undefined },
    now: Date,
  ): Promise<User> {
    const existing = await this.findByImOpenId(db, input.imOpenId);
    if (existing) return existing;
    const row: UserRecord = {
      id: randomUUID(),
      im_open_id: input.imOpenId,
      display_name: input.displayName?.trim() || input.imOpenId,
      avatar_url: input.avatarUrl ?? null,
      created_at: now.toISOString(),
    };
    await db('users').insert(row);
    return toUser(row);
  }
}
