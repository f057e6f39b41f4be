import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';
import type { ApiTokenRecord } from './store.js';

type ApiToken = Schema<'ApiToken'>;

/** Whom a token acts for, by its owner's kind. */
export const ownerTypeOf = (row: Pick<ApiTokenRecord, 'user_kind'>): ApiToken['owner']['type'] =>
  row.user_kind === 'service_account' ? 'serviceAccount' : 'member';

/**
 * A token as the API shows it: never the token itself, only its first characters and its public
 * id. Newest first; the id breaks ties between tokens created in the same millisecond.
 */
export const apiTokenProjection = projection<ApiTokenRecord, ApiToken>()({
  fields: {
    id: 'id',
    publicId: 'public_id',
    name: 'name',
    scopes: { column: 'scopes', as: (scopes) => JSON.parse(scopes) as ApiToken['scopes'] },
    prefix: 'prefix',
    owner: { from: (row) => ({ type: ownerTypeOf(row), id: row.user_id, displayName: row.user_display_name }) },
    createdBy: {
      from: (row) =>
        row.created_by === null
          ? { id: row.user_id, displayName: row.user_display_name }
          : { id: row.created_by, displayName: row.creator_name ?? row.created_by },
    },
    createdAt: 'created_at',
    expiresAt: 'expires_at',
    lastUsedAt: 'last_used_at',
    revokedAt: 'revoked_at',
  },
  order: [
    { column: 'created_at', by: 'codeUnitsDescending' },
    { column: 'id', by: 'codeUnitsDescending' },
  ],
});
