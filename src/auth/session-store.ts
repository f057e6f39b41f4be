import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/unit-of-work.js';
import { toUser, type User, type UserRecord } from '../users/store.js';

export interface StoredSession {
  id: string;
  tokenHash: string;
  user: User;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  /** Where the session was last seen from; null before its first authenticated request. */
  client: SessionClient | null;
}

/** The browser and address a request came from. */
export interface SessionClient {
  userAgent: string;
  address: string;
}

/** A session as its owner's list shows it. */
export interface SessionRecord {
  id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  user_agent: string | null;
  address: string | null;
}

/** Login sessions and one-time login links. Only SHA-256 hashes of tokens are stored. */
export class SessionStore {
  async insertLoginLink(
    db: Executor,
    input: { tokenHash: string; userId: string; createdAt: string; expiresAt: string; breakGlass?: boolean },
  ): Promise<void> {
    await db('login_links').insert({
      token_hash: input.tokenHash,
      user_id: input.userId,
      break_glass: input.breakGlass ?? false,
      created_at: input.createdAt,
      expires_at: input.expiresAt,
      used_at: null,
    });
  }

  /**
   * Marks an unused, unexpired link as used and returns its user id. The conditional update
   * makes redemption single-use even when two requests race for the same link.
   */
  async consumeLoginLink(
    trx: Executor,
    tokenHash: string,
    at: string,
  ): Promise<{ userId: string; breakGlass: boolean } | undefined> {
    const updated = await trx('login_links')
      .where({ token_hash: tokenHash })
      .whereNull('used_at')
      .where('expires_at', '>', at)
      .update({ used_at: at });
    if (updated !== 1) return undefined;
    const row = await trx('login_links')
      .where({ token_hash: tokenHash })
      .first<{ user_id: string; break_glass: boolean | number }>('user_id', 'break_glass');
    return row && { userId: row.user_id, breakGlass: Boolean(row.break_glass) };
  }

  async insertSession(
    trx: Executor,
    input: { tokenHash: string; userId: string; createdAt: string; expiresAt: string },
  ): Promise<void> {
    await trx('login_sessions').insert({
      id: randomUUID(),
      token_hash: input.tokenHash,
      user_id: input.userId,
      created_at: input.createdAt,
      last_seen_at: input.createdAt,
      expires_at: input.expiresAt,
    });
  }

  async findByTokenHash(db: Executor, tokenHash: string): Promise<StoredSession | undefined> {
    const row = await db('login_sessions as s')
      .join('users as u', 'u.id', 's.user_id')
      .where({ 's.token_hash': tokenHash })
      .first<SessionJoinRecord | undefined>(
        's.id as session_id',
        's.created_at as session_created_at',
        's.last_seen_at',
        's.expires_at',
        's.user_agent',
        's.address',
        'u.id',
        'u.im_open_id',
        'u.display_name',
        'u.avatar_url',
        'u.created_at',
        'u.display_name_source',
      );
    if (!row) return undefined;
    return {
      id: row.session_id,
      tokenHash,
      user: toUser(row),
      createdAt: row.session_created_at,
      lastSeenAt: row.last_seen_at,
      expiresAt: row.expires_at,
      client:
        row.user_agent === null || row.address === null ? null : { userAgent: row.user_agent, address: row.address },
    };
  }

  async touch(db: Executor, sessionId: string, at: string, client: SessionClient | null): Promise<void> {
    await db('login_sessions')
      .where({ id: sessionId })
      .update({ last_seen_at: at, ...(client && { user_agent: client.userAgent, address: client.address }) });
  }

  /** The user's sessions, most recently seen first (the caller drops those past their end). */
  async listOfUser(db: Executor, userId: string): Promise<SessionRecord[]> {
    return db('login_sessions')
      .where({ user_id: userId })
      .orderBy([
        { column: 'last_seen_at', order: 'desc' },
        { column: 'id', order: 'asc' },
      ])
      .select<SessionRecord[]>('id', 'created_at', 'last_seen_at', 'expires_at', 'user_agent', 'address');
  }

  /**
   * Deletes the user's sessions — the one `only` names, or all but `except` — and returns the
   * token hashes of those deleted, whose cached copies must be forgotten.
   */
  async deleteOfUser(db: Executor, userId: string, which: { only?: string; except?: string }): Promise<string[]> {
    const rows = await db('login_sessions')
      .where({ user_id: userId })
      .modify((q) => {
        if (which.only !== undefined) q.where({ id: which.only });
        if (which.except !== undefined) q.whereNot({ id: which.except });
      })
      .select<{ id: string; token_hash: string }[]>('id', 'token_hash');
    if (rows.length === 0) return [];
    await db('login_sessions')
      .whereIn(
        'id',
        rows.map((row) => row.id),
      )
      .delete();
    return rows.map((row) => row.token_hash);
  }

  async deleteByTokenHash(db: Executor, tokenHash: string): Promise<void> {
    await db('login_sessions').where({ token_hash: tokenHash }).delete();
  }

  /** Housekeeping: sessions past their absolute or idle end, and links past expiry. */
  async deleteExpired(db: Executor, now: string, idleCutoff: string): Promise<number> {
    const sessions = await db('login_sessions')
      .where('expires_at', '<=', now)
      .orWhere('last_seen_at', '<=', idleCutoff)
      .delete();
    const links = await db('login_links').where('expires_at', '<=', now).delete();
    return sessions + links;
  }
}

interface SessionJoinRecord extends UserRecord {
  session_id: string;
  session_created_at: string;
  last_seen_at: string;
  expires_at: string;
  user_agent: string | null;
  address: string | null;
}
