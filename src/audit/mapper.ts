import type { Schema } from '../http/operation-types.js';
import type { AuditEventRecord } from './store.js';

/** An audit event as the API shows it. */
export const toAuditEvent = (row: AuditEventRecord): Schema<'AuditEvent'> => ({
  id: row.id,
  at: row.at,
  actor: { type: row.actor_type, id: row.actor_id, displayName: row.actor_display_name },
  action: row.action,
  target: { type: row.target_type, id: row.target_id },
  requestId: row.request_id,
  changes: JSON.parse(row.changes) as Schema<'AuditEvent'>['changes'],
});
