import { randomUUID } from 'node:crypto';
import { type ChangeRecorder, type Executor, recorderOf } from '../db/unit-of-work.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import { redactSecrets } from './redact.js';
import { currentAuditScope } from './scope.js';
import type { AuditStore } from './store.js';

/** One state change as the service that made it describes it. */
export interface AuditedChange {
  organizationId: string;
  /**
   * What changed; `label` is its name as the change left it (its name before, when it is gone),
   * kept in the event so it still reads after the target is renamed or removed; null when the
   * target has no name of its own (the organization's capacity, a usage load).
   */
  target: { type: string; id: string | null; label: string | null };
  /** The target as the API showed it before the change (null when it is new). */
  before: unknown;
  /** The target as the API shows it after the change (null when it is gone). */
  after: unknown;
}

/**
 * Writes the audit event of a state change, in the transaction that makes the change, so an
 * event exists exactly when its change committed and a refused or failed call leaves none; the
 * webhook deliveries that tell of it are written in the same transaction by the outbox. Who,
 * when, which operation and which request come from the scope the HTTP layer or the host
 * console opened around the call; outside one (fixtures seeded straight through services)
 * nothing is recorded.
 *
 * The trail is made by the composition root (src/app/services.ts) and given to the unit of work,
 * whose transactions carry it: services record with only their transaction.
 */
export async function recordChange(trx: Executor, change: AuditedChange): Promise<void> {
  const trail = recorderOf<AuditedChange>(trx);
  if (trail) return trail.record(trx, change);
  // Only a change outside any scope (which records nothing) may be made outside such a transaction.
  if (currentAuditScope()) throw new Error('an audited change outside a unit of work with an audit trail');
}

/** The audit events of changes, and the webhook deliveries each one starts. */
export class AuditTrail implements ChangeRecorder<AuditedChange> {
  constructor(
    private readonly events: AuditStore,
    private readonly outbox: WebhookOutbox,
  ) {}

  async record(trx: Executor, change: AuditedChange): Promise<void> {
    const scope = currentAuditScope();
    if (!scope) return;
    const event = {
      id: randomUUID(),
      organization_id: change.organizationId,
      at: scope.at.toISOString(),
      actor_type: scope.actor.type,
      actor_id: scope.actor.id,
      actor_display_name: scope.actor.displayName,
      action: scope.action,
      target_type: change.target.type,
      target_id: change.target.id,
      target_label: change.target.label,
      request_id: scope.requestId,
      client_request_id: scope.clientRequestId ?? null,
      changes: JSON.stringify({ before: redactSecrets(change.before), after: redactSecrets(change.after) }),
    };
    await this.events.insert(trx, event);
    await this.outbox.enqueue(trx, event);
  }
}
