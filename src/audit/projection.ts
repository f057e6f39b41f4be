import type { AuditActor } from './scope.js';
import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';
import { type SummaryInput, summarize } from './summary.js';

export interface AuditEventRecord {
  seq: number | string;
  id: string;
  organization_id: string;
  at: string;
  actor_type: AuditActor['type'];
  actor_id: string | null;
  actor_display_name: string;
  action: string;
  target_type: string;
  target_id: string | null;
  /** Null for events written before labels were kept. */
  target_label: string | null;
  request_id: string | null;
  client_request_id: string | null;
  changes: string;
}

type AuditEvent = Schema<'AuditEvent'>;

/**
 * An audit event as the API shows it; newest first, by the number the database gave it (`seq`),
 * which a page's cursor holds.
 */
export const auditEventProjection = projection<AuditEventRecord, AuditEvent>()({
  fields: {
    id: 'id',
    at: 'at',
    actor: { object: { type: 'actor_type', id: 'actor_id', displayName: 'actor_display_name' } },
    action: 'action',
    target: { object: { type: 'target_type', id: 'target_id', label: 'target_label' } },
    summary: {
      from: (row) =>
        summarize({
          actor: { type: row.actor_type, displayName: row.actor_display_name },
          action: row.action,
          target: { type: row.target_type, id: row.target_id, label: row.target_label ?? null },
          changes: JSON.parse(row.changes) as SummaryInput['changes'],
        }),
    },
    requestId: 'request_id',
    clientRequestId: 'client_request_id',
    changes: { column: 'changes', as: (changes) => JSON.parse(changes) as AuditEvent['changes'] },
  },
  order: [{ column: 'seq', by: 'numberDescending' }],
});
