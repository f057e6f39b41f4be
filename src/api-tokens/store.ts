import type { Executor } from '../db/unit-of-work.js';
import { shownAvatar, shownName } from '../users/shown-profile.js';

/** A token's row joined to the member it acts for. */
export interface ApiTokenRecord {
  id: string;
  organization_id: string;
  user_id: string;
  user_display_name: string;
  user_im_open_id: string;
  user_avatar_url: string | null;
  user_created_at: string;
  name: string;
  scopes: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface NewApiToken {
  id: string;
  organizationId: string;
  userId: string;
  name: string;
  scopes: readonly string[];
  prefix: string;
  tokenHash: string;
  createdAt: string;
  expiresAt: string | null;
}

const TOKEN_USER = { user: 'u', membership: 'm' };

/** The member is named as the token's organization names them (src/users/shown-profile.ts). */
const columns = (db: Executor) => [
  't.id',
  't.organization_id',
  't.user_id',
  shownName(db, TOKEN_USER, 'user_display_name'),
  'u.im_open_id as user_im_open_id',
  shownAvatar(db, TOKEN_USER, 'user_avatar_url'),
  'u.created_at as user_created_at',
  't.name',
  't.scopes',
  't.prefix',
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
    );

/** API tokens of an organization. Only the SHA-256 of a token is ever written. */
export class ApiTokenStore {
  async insert(trx: Executor, token: NewApiToken): Promise<void> {
    await trx('api_tokens').insert({
      id: token.id,
      organization_id: token.organizationId,
      user_id: token.userId,
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

  /** The organization's tokens, in no order; `userId` narrows to one member's. */
  list(db: Executor, organizationId: string, userId?: string): Promise<ApiTokenRecord[]> {
    const query = tokens(db).where('t.organization_id', organizationId);
    if (userId !== undefined) query.where('t.user_id', userId);
    return query.select(columns(db));
  }

  find(db: Executor, organizationId: string, tokenId: string): Promise<ApiTokenRecord | undefined> {
    return tokens(db).where({ 't.organization_id': organizationId, 't.id': tokenId }).first(columns(db));
  }

  findByHash(db: Executor, tokenHash: string): Promise<ApiTokenRecord | undefined> {
    return tokens(db).where('t.token_hash', tokenHash).first(columns(db));
  }

  async hashOf(db: Executor, tokenId: string): Promise<string | undefined> {
    const row = await db('api_tokens').where({ id: tokenId }).first<{ token_hash: string } | undefined>('token_hash');
    return row?.token_hash;
  }

  async revoke(trx: Executor, tokenId: string, at: string): Promise<void> {
    await trx('api_tokens').where({ id: tokenId }).whereNull('revoked_at').update({ revoked_at: at });
  }

  async touch(db: Executor, tokenId: string, at: string): Promise<void> {
    await db('api_tokens').where({ id: tokenId }).update({ last_used_at: at });
  }
}
