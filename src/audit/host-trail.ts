import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/unit-of-work.js';
import type { AuditActor } from './scope.js';

/** One event of the host's own log: what the host did that belongs to no organization's log. */
export interface HostEvent {
  actor: AuditActor;
  at: Date;
  action: string;
  target: { type: string; id: string | null; label: string | null };
  /** What the event says beyond its target; never a secret. */
  details: Record<string, unknown>;
}

/**
 * Records a host event (`host_audit_events`) in the transaction of the change: an organization's
 * purge, a platform runtime credential made or revoked.
 */
export async function recordHostEvent(trx: Executor, event: HostEvent): Promise<void> {
  await trx('host_audit_events').insert({
    id: randomUUID(),
    at: event.at.toISOString(),
    actor_type: event.actor.type,
    actor_display_name: event.actor.displayName,
    action: event.action,
    target_type: event.target.type,
    target_id: event.target.id,
    target_label: event.target.label,
    details: JSON.stringify(event.details),
  });
}
