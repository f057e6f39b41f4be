import { randomUUID } from 'node:crypto';
import { type AuditEventRecord, auditEventProjection } from '../audit/projection.js';
import type { Executor } from '../db/unit-of-work.js';
import { timeOrderedId } from '../shared/time-ordered-id.js';
import { subscribes } from './events.js';
import type { NewDelivery, WebhookStore } from './store.js';

/** The body of a delivery (Standard Webhooks' `{type, timestamp, data}`). */
export const deliveryPayload = (type: string, timestamp: string, data: unknown): string =>
  JSON.stringify({ type, timestamp, data });

/** A new delivery of `payload` to one endpoint, due at `at`; `messageId` is kept by a redelivery. */
export const newDelivery = (
  webhook: { id: string; organizationId: string },
  event: string,
  payload: string,
  at: string,
  messageId = `msg_${randomUUID()}`,
): NewDelivery => ({
  // Time-ordered: deliveries written in one millisecond (one transaction's events) list and are
  // sent in the order they were written, the id breaking the tie of `created_at`.
  id: timeOrderedId(),
  organizationId: webhook.organizationId,
  webhookId: webhook.id,
  messageId,
  event,
  payload,
  at,
});

/**
 * Writes one delivery of an audit event per active endpoint of its organization that subscribes
 * to its action (but the endpoint the event creates), in the transaction that writes the event:
 * a change that rolls back leaves no delivery, and one that commits cannot lose its deliveries.
 * `data` is the event as the audit log shows it, secrets already redacted. The audit trail
 * holds it (src/audit/trail.ts).
 */
export class WebhookOutbox {
  constructor(private readonly store: WebhookStore) {}

  async enqueue(trx: Executor, event: Omit<AuditEventRecord, 'seq'>): Promise<void> {
    const endpoints = await this.store.active(trx, event.organization_id);
    // An endpoint hears nothing of its own creation: that delivery would leave before anyone
    // could store the secret the creating call answers with, and fail its signature check.
    const created = event.action === 'createWebhook' && event.target_type === 'webhook' ? event.target_id : null;
    const matching = endpoints.filter(
      (endpoint) => endpoint.id !== created && subscribes(JSON.parse(endpoint.events) as string[], event.action),
    );
    if (matching.length === 0) return;
    const payload = deliveryPayload(event.action, event.at, auditEventProjection.toApi({ ...event, seq: 0 }));
    await this.store.insertDeliveries(
      trx,
      matching.map(({ id }) =>
        newDelivery({ id, organizationId: event.organization_id }, event.action, payload, event.at),
      ),
    );
  }
}
