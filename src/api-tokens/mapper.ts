import type { Schema } from '../http/operation-types.js';
import type { ApiTokenRecord } from './store.js';

/** A token as the API shows it: never the token itself, only its first characters. */
export const toApiToken = (row: ApiTokenRecord): Schema<'ApiToken'> => ({
  id: row.id,
  name: row.name,
  scopes: JSON.parse(row.scopes) as Schema<'ApiToken'>['scopes'],
  prefix: row.prefix,
  createdBy: { id: row.user_id, displayName: row.user_display_name },
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
});
