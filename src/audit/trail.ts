import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/unit-of-work.js';
import { redactSecrets } from './redact.js';
import { currentAuditScope } from './scope.js';
import { AuditStore } from './store.js';
import { enqueueDeliveries } from '../webhooks/outbox.js';

// Stores hold no state: services call recordChange with only their transaction, so one store serves all.
const events = new AuditStore();

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
 * webhook deliveries that tell of it are written in the same transaction (src/webhooks/outbox.ts).
 * Who, when, which operation and which request come from the scope the HTTP layer or the host
 * console opened around the call; outside one (fixtures seeded straight through services)
 * nothing is recorded.
 */
export async function recordChange(trx: Executor, change: AuditedChange): Promise<void> {
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
  await events.insert(trx, event);
  await enqueueDeliveries(trx, event);
}
