import { randomUUID } from 'node:crypto';
import { recordChange } from '../audit/trail.js';
import { type AuditActor, withAuditScope } from '../audit/scope.js';
import { hashToken } from '../auth/tokens.js';
import { DAY_MS, HOUR_MS, MINUTE_MS, type Clock } from '../config/clock.js';
import { holdsJobLock } from '../db/job-lock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { ApiError, badRequest, conflict, forbidden, notFound, unprocessable } from '../errors/api-error.js';
import { PROCESS_LOCAL, TtlCache, type CacheInvalidations } from '../shared/ttl-cache.js';
import { checkTokenPolicy, DEFAULT_TOKEN_POLICY, type TokenPolicy } from './policy.js';
import { apiTokenProjection, ownerTypeOf } from './projection.js';
import { isScope, RUNTIME_SCOPE, type Scope } from './scopes.js';
import { looksLikeApiToken, newApiTokenText, newPublicId, VISIBLE_PREFIX_LENGTH } from './secret.js';
import type { ApiTokenRecord, ApiTokenStore } from './store.js';
import type { User } from '../users/store.js';
import type { Schema } from '../api/types.js';

/** How long the previous secret of a rotated token keeps working when the caller names no overlap. */
const DEFAULT_OVERLAP_HOURS = 24;

/** Who revokes what the token policy ends, in the audit log. */
export const TOKEN_POLICY_ACTOR: AuditActor = { type: 'system', id: null, displayName: 'token policy' };
/** The audit action of a revocation the sweep makes. */
export const SWEEP_ACTION = 'apiToken.sweep';

export interface TokenCaller {
  organizationId: string;
  /** The signed-in member (null for the host console, which makes tokens only for service accounts). */
  userId: string | null;
  /** OWNER or ADMIN: sees and revokes every token of the organization. */
  isOrgAdmin: boolean;
}

export type NewTokenInput = Schema<'CreateApiTokenRequest'>;
export type RotateTokenInput = Schema<'RotateApiTokenRequest'>;

/** A token that authenticated a request: whom it acts for, where, and within which scopes. */
export interface AuthenticatedToken {
  id: string;
  name: string;
  tokenHash: string;
  organizationId: string;
  user: User;
  /** A member's own token, or a service account's (then `user` is the account's user). */
  ownerType: 'member' | 'serviceAccount';
  scopes: readonly string[];
  expiresAt: Date | null;
}

/** What the token service needs of the rest of the organization. */
export interface TokenDirectory {
  /** The organization's token policy as it stands (defaults when never set). */
  policyOf(db: Executor, organizationId: string): Promise<TokenPolicy>;
  /** Every organization's policy that revokes unused tokens. */
  unusedTokenPolicies(db: Executor): Promise<Array<{ organizationId: string; revokeUnusedAfterDays: number }>>;
  /** A live service account of the organization, and whether it is disabled. */
  serviceAccount(db: Executor, organizationId: string, id: string): Promise<{ disabled: boolean } | undefined>;
}

export const tokenInvalid = () =>
  new ApiError(401, 'token_invalid', 'This API token is unknown, expired or revoked. Create a new one.');

const tokenNotFound = (tokenId: string) => notFound('token_not_found', `No API token with the id "${tokenId}".`);

/** `lastUsedAt` is kept to the minute: the start of the minute `now` falls in. */
const minuteOf = (now: Date): string => new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS).toISOString();

const isExpired = (record: ApiTokenRecord, nowMs: number) =>
  record.expires_at !== null && nowMs >= Date.parse(record.expires_at);

/**
 * API tokens: a member's own, or a service account's (made by an org admin or the host
 * console). Each is shown once, works until it expires or is revoked, and can be rotated: a new
 * secret under the same id and public id, the old one valid for an overlap. Only the SHA-256 of a
 * secret is stored. The organization's token policy is checked whenever a token is issued.
 */
export class ApiTokenService {
  private readonly cache: TtlCache<ApiTokenRecord>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: ApiTokenStore,
    private readonly clock: Clock,
    cacheTtlMs: number,
    invalidations: CacheInvalidations = PROCESS_LOCAL,
    private readonly directory: TokenDirectory = NO_DIRECTORY,
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
    const expiresAt = futureExpiry(input.expiresAt ?? null, now);
    const serviceAccountId = input.serviceAccountId;
    if (serviceAccountId === undefined && scopes.includes(RUNTIME_SCOPE)) {
      throw unprocessable(
        'runtime_scope_service_account_only',
        'The "runtime" scope is only for a service account\'s token (give serviceAccountId); ' +
          'a personal token cannot hold it.',
      );
    }
    if (serviceAccountId !== undefined && !caller.isOrgAdmin) {
      throw forbidden('org_admin_required', "A service account's tokens are made by an organization OWNER or ADMIN.");
    }
    const ownerId = serviceAccountId ?? caller.userId;
    if (ownerId === null) throw new Error('a token needs an owner');
    const text = newApiTokenText(newPublicId());
    const publicId = text.slice(5, 21);
    const id = randomUUID();
    const record = await this.uow.run(async (trx) => {
      if (serviceAccountId !== undefined) await this.requireLiveServiceAccount(trx, caller, serviceAccountId);
      checkTokenPolicy(await this.directory.policyOf(trx, caller.organizationId), {
        owner: serviceAccountId === undefined ? 'member' : 'serviceAccount',
        expiresAt,
        now,
      });
      await this.store.insert(trx, {
        id,
        publicId,
        organizationId: caller.organizationId,
        userId: ownerId,
        createdBy: caller.userId,
        name: input.name,
        scopes: scopes as Scope[],
        prefix: text.slice(0, VISIBLE_PREFIX_LENGTH),
        tokenHash: hashToken(text),
        createdAt: now.toISOString(),
        expiresAt: expiresAt?.toISOString() ?? null,
      });
      const created = (await this.store.find(trx, caller.organizationId, id))!;
      await recordTokenChange(trx, null, created);
      return created;
    });
    return { record, token: text };
  }

  /**
   * The caller's own tokens; an org admin sees every token of the organization. With a service
   * account's id, only its tokens (which only an org admin sees).
   */
  async list(caller: TokenCaller, filter: { serviceAccountId?: string | undefined } = {}): Promise<ApiTokenRecord[]> {
    if (filter.serviceAccountId !== undefined) {
      if (!caller.isOrgAdmin) return [];
      return this.store.list(this.uow.executor, caller.organizationId, filter.serviceAccountId);
    }
    return this.store.list(
      this.uow.executor,
      caller.organizationId,
      caller.isOrgAdmin ? undefined : (caller.userId ?? undefined),
    );
  }

  /** A member's tokens that still work or could: what stops when they leave. */
  liveTokensOf(organizationId: string, userId: string): Promise<ApiTokenRecord[]> {
    return this.store.listLive(this.uow.executor, organizationId, userId, this.clock.now().toISOString());
  }

  /** Revokes at once, in every instance. A member may revoke their own tokens; an org admin, any. */
  async revoke(caller: TokenCaller, tokenId: string): Promise<ApiTokenRecord> {
    const at = this.clock.now().toISOString();
    const { record, changed } = await this.uow.run(async (trx) => {
      const before = await this.findVisible(trx, caller, tokenId);
      if (before.revoked_at !== null) return { record: before, changed: false };
      return { record: await this.revokeRecorded(trx, before, at), changed: true };
    });
    if (changed) await this.forgetCached();
    return record;
  }

  /**
   * A new secret for the token, shown once; the previous one works for `overlapHours` more (none
   * with 0). The id and public id stay, so every reference to the token stays right.
   */
  async rotate(
    caller: TokenCaller,
    tokenId: string,
    input: RotateTokenInput = {},
  ): Promise<{ record: ApiTokenRecord; token: string }> {
    const now = this.clock.now();
    const overlapHours = input.overlapHours ?? DEFAULT_OVERLAP_HOURS;
    const result = await this.uow.run(async (trx) => {
      const before = await this.findVisible(trx, caller, tokenId);
      if (before.revoked_at !== null || isExpired(before, now.getTime())) throw tokenNotFound(tokenId);
      const expiresAt =
        input.expiresAt === undefined
          ? before.expires_at === null
            ? null
            : new Date(before.expires_at)
          : futureExpiry(input.expiresAt, now);
      checkTokenPolicy(await this.directory.policyOf(trx, caller.organizationId), {
        owner: ownerTypeOf(before),
        expiresAt,
        now,
      });
      const text = newApiTokenText(before.public_id);
      await this.store.rotate(trx, tokenId, before.token_hash, {
        tokenHash: hashToken(text),
        previousValidUntil: overlapHours > 0 ? new Date(now.getTime() + overlapHours * HOUR_MS).toISOString() : null,
        expiresAt: expiresAt?.toISOString() ?? null,
      });
      const after = (await this.store.find(trx, caller.organizationId, tokenId))!;
      await recordTokenChange(trx, before, after);
      return { record: after, token: text };
    });
    // The secrets that were valid: the rotated one now lives only as long as the overlap, and the
    // one before it (a rotation within an overlap) not at all.
    await this.forgetCached();
    return result;
  }

  /**
   * Revokes every live token of one owner in the caller's transaction, each with its audit event:
   * a member leaving, a service account deleted. Call `forgetCached` once it has committed.
   */
  async revokeAllOf(trx: Executor, organizationId: string, userId: string, at: string): Promise<ApiTokenRecord[]> {
    const live = await this.store.listLive(trx, organizationId, userId, at);
    const revoked: ApiTokenRecord[] = [];
    for (const token of live) revoked.push(await this.revokeRecorded(trx, token, at));
    return revoked;
  }

  /** Forgets every cached token here and in the other instances (after revocations or a disabled owner). */
  forgetCached(): Promise<void> {
    return this.cache.invalidate();
  }

  /**
   * The token policy's sweep, run every few minutes by every `hub serve`: revokes tokens past their
   * expiry and, where the policy says so, tokens unused for too long, each with an audit event of
   * the `system` actor. On PostgreSQL one instance at a time sweeps (the others skip the round).
   * Answers how many tokens it revoked.
   */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const at = now.toISOString();
    const revoked = await withAuditScope(
      { actor: TOKEN_POLICY_ACTOR, at: now, action: SWEEP_ACTION, requestId: null },
      () =>
        this.uow.run(async (trx) => {
          if (!(await holdsJobLock(trx, 'api-token-sweep'))) return 0;
          const due = new Map<string, ApiTokenRecord>();
          for (const token of await this.store.expired(trx, at)) due.set(token.id, token);
          for (const { organizationId, revokeUnusedAfterDays } of await this.directory.unusedTokenPolicies(trx)) {
            const cutoff = new Date(now.getTime() - revokeUnusedAfterDays * DAY_MS).toISOString();
            for (const token of await this.store.unusedSince(trx, organizationId, cutoff)) due.set(token.id, token);
          }
          for (const token of due.values()) await this.revokeRecorded(trx, token, at);
          return due.size;
        }),
    );
    if (revoked > 0) await this.forgetCached();
    return revoked;
  }

  /**
   * The token behind a bearer value; 401 `token_invalid` when it is unknown, expired, revoked, a
   * previous secret past its overlap, or its service account disabled.
   */
  async authenticate(secret: string): Promise<AuthenticatedToken> {
    if (!looksLikeApiToken(secret)) throw tokenInvalid();
    const tokenHash = hashToken(secret);
    const now = this.clock.now();
    const nowMs = now.getTime();
    let record = await this.cache.getSettled(tokenHash, nowMs);
    if (!record) {
      const readAt = this.cache.mark();
      record = await this.store.findBySecretHash(this.uow.executor, tokenHash);
      if (!record) throw tokenInvalid();
      this.cache.set(tokenHash, record, nowMs, readAt);
    }
    if (record.revoked_at !== null || isExpired(record, nowMs) || record.owner_disabled_at !== null)
      throw tokenInvalid();
    // The previous secret of a rotation works only until its overlap ends.
    if (tokenHash !== record.token_hash) {
      const until = record.previous_valid_until;
      if (until === null || nowMs >= Date.parse(until)) throw tokenInvalid();
    }
    const minute = minuteOf(now);
    if (record.last_used_at === null || record.last_used_at < minute) {
      record = { ...record, last_used_at: minute };
      await this.store.touch(this.uow.executor, record.id, minute);
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
      ownerType: ownerTypeOf(record),
      scopes: JSON.parse(record.scopes) as string[],
      expiresAt: record.expires_at === null ? null : new Date(record.expires_at),
    };
  }

  /** The token, if the caller may see it: their own, or any of the organization's for an org admin. */
  private async findVisible(trx: Executor, caller: TokenCaller, tokenId: string): Promise<ApiTokenRecord> {
    const record = await this.store.find(trx, caller.organizationId, tokenId);
    if (!record || (!caller.isOrgAdmin && record.user_id !== caller.userId)) throw tokenNotFound(tokenId);
    return record;
  }

  private async revokeRecorded(trx: Executor, before: ApiTokenRecord, at: string): Promise<ApiTokenRecord> {
    await this.store.revoke(trx, before.id, at);
    const after = (await this.store.find(trx, before.organization_id, before.id))!;
    await recordTokenChange(trx, before, after);
    return after;
  }

  private async requireLiveServiceAccount(trx: Executor, caller: TokenCaller, id: string): Promise<void> {
    const account = await this.directory.serviceAccount(trx, caller.organizationId, id);
    if (!account) throw notFound('service_account_not_found', `No service account with the id "${id}".`);
    if (account.disabled) {
      throw conflict('service_account_disabled', 'This service account is disabled; enable it to give it tokens.');
    }
  }
}

/** An expiry given for a new or rotated token, which must lie ahead (null: never). */
function futureExpiry(expiresAt: string | null, now: Date): Date | null {
  if (expiresAt === null) return null;
  const at = new Date(expiresAt);
  if (at.getTime() <= now.getTime()) {
    throw badRequest('`expiresAt` must lie in the future.', [{ path: '/body/expiresAt', message: 'in the past' }]);
  }
  return at;
}

const recordTokenChange = (trx: Executor, before: ApiTokenRecord | null, after: ApiTokenRecord) =>
  recordChange(trx, {
    organizationId: after.organization_id,
    target: { type: 'api_token', id: after.id, label: after.name },
    before: before && apiTokenProjection.toApi(before),
    after: apiTokenProjection.toApi(after),
  });

/** For a service built without the rest of the organization (tests of the token itself): defaults, no accounts. */
const NO_DIRECTORY: TokenDirectory = {
  policyOf: async () => DEFAULT_TOKEN_POLICY,
  unusedTokenPolicies: async () => [],
  serviceAccount: async () => undefined,
};
