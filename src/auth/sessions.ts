import type { Clock } from '../config/clock.js';
import { DAY_MS, MINUTE_MS } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { ApiError, unauthenticated } from '../errors/api-error.js';
import { environmentFault } from '../errors/environment-fault.js';
import type { User, UserStore } from '../users/store.js';
import { PROCESS_LOCAL, TtlCache, type CacheInvalidations } from '../shared/ttl-cache.js';
import type { SessionClient, SessionRecord, SessionStore, StoredSession } from './session-store.js';
import { hashToken, newToken } from './tokens.js';

export const SESSION_COOKIE = 'hub_session';
export const SESSION_ABSOLUTE_MS = 14 * DAY_MS;
export const SESSION_IDLE_MS = 3 * DAY_MS;
export const LOGIN_LINK_TTL_MS = 15 * MINUTE_MS;
/** `last_seen_at` is written at most this often per session, not on every request. */
const TOUCH_INTERVAL_MS = MINUTE_MS;

/**
 * The credential a request was authenticated with and the user behind it: a session, or an API
 * token acting for its member (then `id`, `tokenHash` and `expiresAt` are the token's, and
 * `expiresAt` is null for a token that never expires).
 */
export interface AuthenticatedSession {
  id: string;
  tokenHash: string;
  user: User;
  expiresAt: Date | null;
}

/** A session token handed to the browser, with the moment its absolute lifetime ends. */
export interface IssuedSession {
  token: string;
  expiresAt: Date;
}

/**
 * What may refuse a one-time login link, at issue and again at redemption (ApiError), and records
 * a break-glass one (src/directory/login-links.ts).
 */
export interface LoginLinkGate {
  check(db: Executor, userId: string, breakGlass: boolean): Promise<void>;
  issued(trx: Executor, userId: string, breakGlass: boolean, at: Date): Promise<void>;
}

/**
 * Login links, sessions and their lifetimes: 14 days absolute, 3 days idle (sliding), a new
 * token at every login, and one-time links valid 15 minutes.
 */
export class SessionService {
  private readonly cache: TtlCache<StoredSession>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: SessionStore,
    private readonly users: UserStore,
    private readonly clock: Clock,
    cacheTtlMs: number,
    invalidations: CacheInvalidations = PROCESS_LOCAL,
    private readonly linkGate?: LoginLinkGate,
  ) {
    this.cache = new TtlCache(cacheTtlMs, undefined, { name: 'sessions', invalidations });
  }

  /**
   * Issues a one-time login link token for an existing user; the caller builds the URL. The gate
   * (the operator's HUB_LOGIN_LINKS, a domain's required sign-in) may refuse it; `breakGlass`
   * passes a domain's requirement and is recorded by the gate.
   */
  async issueLoginLink(
    imOpenId: string,
    options: { breakGlass?: boolean } = {},
  ): Promise<{ token: string; expiresAt: Date; user: User }> {
    const breakGlass = options.breakGlass === true;
    const user = await this.users.findByImOpenId(this.uow.executor, imOpenId);
    if (!user) throw new ApiError(404, 'user_not_found', `No user has the imOpenId "${imOpenId}".`);
    if (await this.users.isServiceAccount(this.uow.executor, user.id)) throw serviceAccountsNeverSignIn();
    const now = this.clock.now();
    const token = newToken();
    const expiresAt = new Date(now.getTime() + LOGIN_LINK_TTL_MS);
    await this.uow.run(async (trx) => {
      await this.linkGate?.check(trx, user.id, breakGlass);
      await this.store.insertLoginLink(trx, {
        tokenHash: hashToken(token),
        userId: user.id,
        createdAt: now.toISOString(),
        expiresAt: expiresAt.toISOString(),
        breakGlass,
      });
      await this.linkGate?.issued(trx, user.id, breakGlass, now);
    });
    return { token, expiresAt, user };
  }

  /** Redeems a login link: the link is used up and a new session starts, both or neither. */
  async redeemLoginLink(linkToken: string): Promise<IssuedSession> {
    const now = this.clock.now();
    const at = now.toISOString();
    const token = newToken();
    const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
    const redeemed = await this.uow.run(async (trx) => {
      const link = await this.store.consumeLoginLink(trx, hashToken(linkToken), at);
      if (!link) return false;
      const { userId } = link;
      // Asked again at redemption: a requirement set after the link was issued holds too.
      await this.linkGate?.check(trx, userId, link.breakGlass);
      await this.store.insertSession(trx, {
        tokenHash: hashToken(token),
        userId,
        createdAt: at,
        expiresAt: expiresAt.toISOString(),
      });
      return true;
    });
    if (!redeemed) throw unauthenticated('This login link is unknown, expired or already used. Ask for a new one.');
    return { token, expiresAt };
  }

  /** Starts a session for a user who signed in another way (an identity provider), in the caller's transaction. */
  async startSession(trx: Executor, userId: string): Promise<IssuedSession> {
    if (await this.users.isServiceAccount(trx, userId)) throw serviceAccountsNeverSignIn();
    const now = this.clock.now();
    const token = newToken();
    const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
    await this.store.insertSession(trx, {
      tokenHash: hashToken(token),
      userId,
      createdAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
    });
    return { token, expiresAt };
  }

  /**
   * The live session behind a cookie token, or undefined when it is unknown or expired. The
   * browser and address it is seen from are kept with `last_seen_at` (and at once when they
   * change), for the person's list of their sessions.
   */
  async authenticate(token: string | undefined, client?: SessionClient): Promise<AuthenticatedSession | undefined> {
    if (!token) return undefined;
    const tokenHash = hashToken(token);
    const now = this.clock.now();
    const nowMs = now.getTime();
    let session = await this.cache.getSettled(tokenHash, nowMs);
    if (!session) {
      const readAt = this.cache.mark();
      session = await this.store.findByTokenHash(this.uow.executor, tokenHash);
      if (!session) return undefined;
      this.cache.set(tokenHash, session, nowMs, readAt);
    }
    const expiresAt = new Date(session.expiresAt);
    const lastSeen = Date.parse(session.lastSeenAt);
    if (!isLive(session.expiresAt, session.lastSeenAt, nowMs)) {
      this.cache.delete(tokenHash);
      await this.store.deleteByTokenHash(this.uow.executor, tokenHash);
      return undefined;
    }
    const moved = client !== undefined && !sameClient(session.client, client);
    if (moved || nowMs - lastSeen >= TOUCH_INTERVAL_MS) {
      const touched = { ...session, lastSeenAt: now.toISOString(), client: client ?? session.client };
      try {
        await this.store.touch(this.uow.executor, touched.id, touched.lastSeenAt, touched.client);
        session = touched;
        this.cache.set(tokenHash, session, nowMs);
      } catch (err) {
        // Bookkeeping: a database held by another process (or full) must not fail a read over
        // the last-seen time; the session stays as it was and a later request writes it.
        if (!environmentFault(err)) throw err;
      }
    }
    return { id: session.id, tokenHash, user: session.user, expiresAt };
  }

  /** Ends the session in every instance: the others are told once the row is gone. */
  async logout(tokenHash: string): Promise<void> {
    this.cache.delete(tokenHash);
    await this.store.deleteByTokenHash(this.uow.executor, tokenHash);
    await this.cache.invalidate(tokenHash);
  }

  /** Ends a session given only its cookie token (used when a new login replaces an old one). */
  async logoutToken(token: string): Promise<void> {
    await this.logout(hashToken(token));
  }

  /** The user's live sessions, most recently seen first. */
  async listOf(userId: string): Promise<SessionRecord[]> {
    const nowMs = this.clock.now().getTime();
    const rows = await this.store.listOfUser(this.uow.executor, userId);
    return rows.filter((row) => isLive(row.expires_at, row.last_seen_at, nowMs));
  }

  /**
   * Ends the user's sessions — the one `only` names, or every one but `except`, or all — in the
   * caller's transaction when given; returns the token hashes ended. Their cached copies are
   * forgotten here and in every instance once `forget` runs after the commit.
   */
  async endSessionsOf(
    trx: Executor,
    userId: string,
    which: { only?: string; except?: string } = {},
  ): Promise<string[]> {
    const hashes = await this.store.deleteOfUser(trx, userId, which);
    for (const hash of hashes) this.cache.delete(hash);
    return hashes;
  }

  /** Tells every instance that these sessions ended. */
  async forget(tokenHashes: string[]): Promise<void> {
    for (const hash of tokenHashes) await this.cache.invalidate(hash);
  }

  /** Ends sessions of the user outside any other change: `endSessionsOf`, then `forget`. */
  async end(userId: string, which: { only?: string; except?: string } = {}): Promise<number> {
    const hashes = await this.endSessionsOf(this.uow.executor, userId, which);
    await this.forget(hashes);
    return hashes.length;
  }

  /** Removes sessions and login links that can no longer be used. */
  deleteExpired(now: Date): Promise<number> {
    return this.store.deleteExpired(
      this.uow.executor,
      now.toISOString(),
      new Date(now.getTime() - SESSION_IDLE_MS).toISOString(),
    );
  }

  /** Forget every cached session (after a change to users that sessions carry). */
  invalidateCache(): Promise<void> {
    return this.cache.invalidate();
  }
}

/** A service account works through its API tokens only: no login link or sign-in starts a session for it. */
const serviceAccountsNeverSignIn = () =>
  new ApiError(401, 'unauthenticated', 'This is a service account: it never signs in and works through API tokens.');

/** Whether a session is within its absolute and idle lifetimes. */
const isLive = (expiresAt: string, lastSeenAt: string, nowMs: number): boolean =>
  nowMs < Date.parse(expiresAt) && nowMs < Date.parse(lastSeenAt) + SESSION_IDLE_MS;

const sameClient = (a: SessionClient | null, b: SessionClient): boolean =>
  a !== null && a.userAgent === b.userAgent && a.address === b.address;
