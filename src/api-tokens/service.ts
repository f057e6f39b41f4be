import { randomUUID } from 'node:crypto';
import { recordChange } from '../audit/trail.js';
import { hashToken } from '../auth/tokens.js';
import { MINUTE_MS, type Clock } from '../config/clock.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { ApiError, badRequest, notFound } from '../errors/api-error.js';
import { PROCESS_LOCAL, TtlCache, type CacheInvalidations } from '../shared/ttl-cache.js';
import { apiTokenProjection } from './projection.js';
import { isScope, type Scope } from './scopes.js';
import { looksLikeApiToken, newApiTokenSecret, VISIBLE_PREFIX_LENGTH } from './secret.js';
import type { ApiTokenRecord, ApiTokenStore } from './store.js';
import type { User } from '../users/store.js';
import type { Schema } from '../api/types.js';

/** `lastUsedAt` is written at most this often per token, not on every request. */
const TOUCH_INTERVAL_MS = MINUTE_MS;

export interface TokenCaller {
  organizationId: string;
  userId: string;
  /** OWNER or ADMIN: sees and revokes every token of the organization. */
  isOrgAdmin: boolean;
}

export type NewTokenInput = Schema<'CreateApiTokenRequest'>;

/** A token that authenticated a request: whom it acts for, where, and within which scopes. */
export interface AuthenticatedToken {
  id: string;
  name: string;
  tokenHash: string;
  organizationId: string;
  user: User;
  scopes: readonly string[];
  expiresAt: Date | null;
}

export const tokenInvalid = () =>
  new ApiError(401, 'token_invalid', 'This API token is unknown, expired or revoked. Create a new one.');

const tokenNotFound = (tokenId: string) => notFound('token_not_found', `No API token with the id "${tokenId}".`);

/**
 * Personal API tokens: a member creates one for themself in one organization, sees it once,
 * and it works until it expires or is revoked. Only the SHA-256 of a token is stored.
 */
export class ApiTokenService {
  private readonly cache: TtlCache<ApiTokenRecord>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: ApiTokenStore,
    private readonly clock: Clock,
    cacheTtlMs: number,
    invalidations: CacheInvalidations = PROCESS_LOCAL,
  ) {
    this.cache = new TtlCache(cacheTtlMs, undefined, { name: 'api-tokens', invalidations });
  }

  async create(caller: TokenCaller, input: NewTokenInput): Promise<{ record: ApiTokenRecord; token: string }> {
    const scopes = [...new Set(input.scopes)];
    const unknown = scopes.filter((scope) => !isScope(scope));
    if (unknown.length) {
      throw badRequest(`Unknown scope ${unknown.map((s) => `"${s}"`).join(', ')}; scopes look like "members:read".`, [
        { path: '/body/scopes', message: 'unknown scope' },
      ]);
    }
    const now = this.clock.now();
    const expiresAt = input.expiresAt ?? null;
    if (expiresAt !== null && Date.parse(expiresAt) <= now.getTime()) {
      throw badRequest('`expiresAt` must lie in the future.', [{ path: '/body/expiresAt', message: 'in the past' }]);
    }
    const token = newApiTokenSecret();
    const id = randomUUID();
    const record = await this.uow.run(async (trx) => {
      await this.store.insert(trx, {
        id,
        organizationId: caller.organizationId,
        userId: caller.userId,
        name: input.name,
        scopes: scopes as Scope[],
        prefix: token.slice(0, VISIBLE_PREFIX_LENGTH),
        tokenHash: hashToken(token),
        createdAt: now.toISOString(),
        expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
      });
      const created = (await this.store.find(trx, caller.organizationId, id))!;
      await recordChange(trx, {
        organizationId: caller.organizationId,
        target: { type: 'api_token', id, label: created.name },
        before: null,
        after: apiTokenProjection.toApi(created),
      });
      return created;
    });
    return { record, token };
  }

  /** The caller's own tokens; an org admin sees every token of the organization. */
  list(caller: TokenCaller): Promise<ApiTokenRecord[]> {
    return this.store.list(this.uow.executor, caller.organizationId, caller.isOrgAdmin ? undefined : caller.userId);
  }

  /** Revokes at once, in every instance. A member may revoke their own tokens; an org admin, any. */
  async revoke(caller: TokenCaller, tokenId: string): Promise<ApiTokenRecord> {
    const at = this.clock.now().toISOString();
    const { record, hash } = await this.uow.run(async (trx) => {
      const before = await this.store.find(trx, caller.organizationId, tokenId);
      if (!before || (!caller.isOrgAdmin && before.user_id !== caller.userId)) throw tokenNotFound(tokenId);
      if (before.revoked_at !== null) return { record: before, hash: undefined };
      await this.store.revoke(trx, tokenId, at);
      const after = (await this.store.find(trx, caller.organizationId, tokenId))!;
      await recordChange(trx, {
        organizationId: caller.organizationId,
        target: { type: 'api_token', id: tokenId, label: after.name },
        before: apiTokenProjection.toApi(before),
        after: apiTokenProjection.toApi(after),
      });
      return { record: after, hash: await this.store.hashOf(trx, tokenId) };
    });
    if (hash !== undefined) await this.cache.invalidate(hash);
    return record;
  }

  /** The token behind a bearer value; 401 `token_invalid` when it is unknown, expired or revoked. */
  async authenticate(secret: string): Promise<AuthenticatedToken> {
    if (!looksLikeApiToken(secret)) throw tokenInvalid();
    const tokenHash = hashToken(secret);
    const now = this.clock.now();
    const nowMs = now.getTime();
    let record = await this.cache.getSettled(tokenHash, nowMs);
    if (!record) {
      const readAt = this.cache.mark();
      record = await this.store.findByHash(this.uow.executor, tokenHash);
      if (!record) throw tokenInvalid();
      this.cache.set(tokenHash, record, nowMs, readAt);
    }
    if (record.revoked_at !== null) throw tokenInvalid();
    if (record.expires_at !== null && nowMs >= Date.parse(record.expires_at)) throw tokenInvalid();
    const lastUsed = record.last_used_at === null ? Number.NEGATIVE_INFINITY : Date.parse(record.last_used_at);
    if (nowMs - lastUsed >= TOUCH_INTERVAL_MS) {
      record = { ...record, last_used_at: now.toISOString() };
      await this.store.touch(this.uow.executor, record.id, record.last_used_at!);
      this.cache.set(tokenHash, record, nowMs);
    }
    return {
      id: record.id,
      name: record.name,
      tokenHash,
      organizationId: record.organization_id,
      user: {
        id: record.user_id,
        imOpenId: record.user_im_open_id,
        displayName: record.user_display_name,
        avatarUrl: record.user_avatar_url,
        createdAt: record.user_created_at,
        // The name as the organization shows it; a token never reaches `/me`, where the source counts.
        displayNameSource: null,
      },
      scopes: JSON.parse(record.scopes) as string[],
      expiresAt: record.expires_at === null ? null : new Date(record.expires_at),
    };
  }
}
