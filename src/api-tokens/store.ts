import type { Executor } from '../db/unit-of-work.js';
import { shownAvatar, shownName } from '../users/shown-profile.js';

/** A token's row joined to whom it acts for (a member or a service account) and who created it. */
export interface ApiTokenRecord {
  id: string;
  public_id: string;
  organization_id: string;
  user_id: string;
  /** `person` or `service_account`: the owner's kind. */
  user_kind: string;
  user_display_name: string;
  user_im_open_id: string;
  user_avatar_url: string | null;
  user_created_at: string;
  /** Set while the owning service account is disabled. */
  owner_disabled_at: string | null;
  /** Who created the token; null for tokens made before creators were kept, whose creator is their owner. */
  created_by: string | null;
  creator_name: string | null;
  name: string;
  scopes: string;
  prefix: string;
  token_hash: string;
  previous_token_hash: string | null;
  previous_valid_until: string | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface NewApiToken {
  id: string;
  publicId: string;
  organizationId: string;
  userId: string;
  createdBy: string | null;
  name: string;
  scopes: readonly string[];
  prefix: string;
  tokenHash: string;
  createdAt: string;
  expiresAt: string | null;
}

const OWNER = { user: 'u', membership: 'm' };

/** The owner and creator are named as the token's organization names them (src/users/shown-profile.ts). */
const columns = (db: Executor) => [
  't.id',
  't.public_id',
  't.organization_id',
  't.user_id',
  'u.kind as user_kind',
  shownName(db, OWNER, 'user_display_name'),
  'u.im_open_id as user_im_open_id',
  shownAvatar(db, OWNER, 'user_avatar_url'),
  'u.created_at as user_created_at',
  'sa.disabled_at as owner_disabled_at',
  't.created_by',
  shownName(db, { user: 'cu', membership: 'cm' }, 'creator_name'),
  't.name',
  't.scopes',
  't.prefix',
  't.token_hash',
  't.previous_token_hash',
  't.previous_valid_until',
  't.created_at',
  't.expires_at',
  't.last_used_at',
  't.revoked_at',
];

const tokens = (db: Executor) =>
  db('api_tokens as t')
    .join('users as u', 'u.id', 't.user_id')
    .leftJoin('memberships as m', (on) =>
      on.on('m.user_id', '=', 't.user_id').andOn('m.organization_id', '=', 't.organization_id'),
    )
    .leftJoin('service_accounts as sa', 'sa.id', 't.user_id')
    .leftJoin('users as cu', 'cu.id', 't.created_by')
    .leftJoin('memberships as cm', (on) =>
      on.on('cm.user_id', '=', 't.created_by').andOn('cm.organization_id', '=', 't.organization_id'),
    );

/** A secret replacing the current one: the new hash, and until when the previous stays valid (null: not at all). */
export interface Rotation {
  tokenHash: string;
  previousValidUntil: string | null;
  expiresAt: string | null;
}

/** API tokens of an organization. Only the SHA-256 of a token's secret is ever written. */
export class ApiTokenStore {
  async insert(trx: Executor, token: NewApiToken): Promise<void> {
    await trx('api_tokens').insert({
      id: token.id,
      public_id: token.publicId,
      organization_id: token.organizationId,
      user_id: token.userId,
      created_by: token.createdBy,
      name: token.name,
      scopes: JSON.stringify(token.scopes),
      prefix: token.prefix,
      token_hash: token.tokenHash,
      created_at: token.createdAt,
      expires_at: token.expiresAt,
      last_used_at: null,
      revoked_at: null,
    });
  }

  /** The organization's tokens, in no order; `userId` narrows to one owner's. */
  list(db: Executor, organizationId: string, userId?: string): Promise<ApiTokenRecord[]> {
    const query = tokens(db).where('t.organization_id', organizationId);
    if (userId !== undefined) query.where('t.user_id', userId);
    return query.select(columns(db));
  }

  /** The owner's tokens that still work or could: not revoked, not expired at `now`. */
  listLive(db: Executor, organizationId: string, userId: string, now: string): Promise<ApiTokenRecord[]> {
    return tokens(db)
      .where({ 't.organization_id': organizationId, 't.user_id': userId })
      .whereNull('t.revoked_at')
      .where((q) => q.whereNull('t.expires_at').orWhere('t.expires_at', '>', now))
      .select(columns(db));
  }

  find(db: Executor, organizationId: string, tokenId: string): Promise<ApiTokenRecord | undefined> {
    return tokens(db).where({ 't.organization_id': organizationId, 't.id': tokenId }).first(columns(db));
  }

  /** The token whose current secret, or previous one (during a rotation's overlap), has this hash. */
  async findBySecretHash(db: Executor, tokenHash: string): Promise<ApiTokenRecord | undefined> {
    return (
      (await tokens(db).where('t.token_hash', tokenHash).first(columns(db))) ??
      (await tokens(db).where('t.previous_token_hash', tokenHash).first(columns(db)))
    );
  }

  async rotate(trx: Executor, tokenId: string, previousHash: string, rotation: Rotation): Promise<void> {
    await trx('api_tokens')
      .where({ id: tokenId })
      .update({
        token_hash: rotation.tokenHash,
        previous_token_hash: rotation.previousValidUntil === null ? null : previousHash,
        previous_valid_until: rotation.previousValidUntil,
        expires_at: rotation.expiresAt,
      });
  }

  async revoke(trx: Executor, tokenId: string, at: string): Promise<void> {
    await trx('api_tokens').where({ id: tokenId }).whereNull('revoked_at').update({ revoked_at: at });
  }

  async touch(db: Executor, tokenId: string, at: string): Promise<void> {
    await db('api_tokens').where({ id: tokenId }).update({ last_used_at: at });
  }

  /** Live (unrevoked) tokens past their expiry at `now`, of every organization. */
  expired(db: Executor, now: string): Promise<ApiTokenRecord[]> {
    return tokens(db).whereNull('t.revoked_at').where('t.expires_at', '<=', now).select(columns(db));
  }

  /** The organization's unrevoked tokens last used (or, never used, created) before `cutoff`. */
  unusedSince(db: Executor, organizationId: string, cutoff: string): Promise<ApiTokenRecord[]> {
    return tokens(db)
      .where('t.organization_id', organizationId)
      .whereNull('t.revoked_at')
      .whereRaw('coalesce(t.last_used_at, t.created_at) < ?', [cutoff])
      .select(columns(db));
  }
}
