import type { Executor } from '../db/unit-of-work.js';
import { type AuditEventRecord, auditEventProjection } from './projection.js';

export interface AuditFilters {
  actorId?: string | undefined;
  action?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  /** Inclusive. */
  from?: string | undefined;
  /** Exclusive. */
  to?: string | undefined;
}

/** The audit log: append-only, read newest first by `seq`. */
export class AuditStore {
  /** Appends one event; the database numbers it (`seq`). */
  async insert(trx: Executor, event: Omit<AuditEventRecord, 'seq'>): Promise<void> {
    await trx('audit_events').insert(event);
  }

  /** Up to `limit` events older than the event `beforeSeq` (all when undefined), newest first. */
  list(
    db: Executor,
    organizationId: string,
    filters: AuditFilters,
    limit: number,
    beforeSeq: number | undefined,
  ): Promise<AuditEventRecord[]> {
    const query = db('audit_events').where('organization_id', organizationId);
    if (filters.actorId !== undefined) query.where('actor_id', filters.actorId);
    if (filters.action !== undefined) query.where('action', filters.action);
    if (filters.targetType !== undefined) query.where('target_type', filters.targetType);
    if (filters.targetId !== undefined) query.where('target_id', filters.targetId);
    if (filters.from !== undefined) query.where('at', '>=', filters.from);
    if (filters.to !== undefined) query.where('at', '<', filters.to);
    if (beforeSeq !== undefined) query.where('seq', '<', beforeSeq);
    return query.orderBy(auditEventProjection.sqlOrder).limit(limit).select('*');
  }
}
