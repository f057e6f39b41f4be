import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';
import type { ApiTokenRecord } from './store.js';

type ApiToken = Schema<'ApiToken'>;

/**
 * A token as the API shows it: never the token itself, only its first characters. Newest first;
 * the id breaks ties between tokens created in the same millisecond.
 */
export const apiTokenProjection = projection<ApiTokenRecord, ApiToken>()({
  fields: {
    id: 'id',
    name: 'name',
    scopes: { column: 'scopes', as: (scopes) => JSON.parse(scopes) as ApiToken['scopes'] },
    prefix: 'prefix',
    createdBy: { object: { id: 'user_id', displayName: 'user_display_name' } },
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
