import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';
import type { DeliveryRecord, WebhookRecord } from './store.js';

type Webhook = Schema<'Webhook'>;

/** An endpoint as the API shows it: never a secret. Newest first; the id breaks ties. */
export const webhookProjection = projection<WebhookRecord, Webhook>()({
  fields: {
    id: 'id',
    url: 'url',
    description: 'description',
    events: { column: 'events', as: (events) => JSON.parse(events) as Webhook['events'] },
    status: 'status',
    disabledReason: 'disabled_reason',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: [
    { column: 'created_at', by: 'codeUnitsDescending' },
    { column: 'id', by: 'codeUnitsDescending' },
  ],
});

/** A delivery and its last attempt, without the payload it carries. Newest first, paged in SQL. */
export const deliveryProjection = projection<DeliveryRecord, Schema<'WebhookDelivery'>>()({
  fields: {
    id: 'id',
    webhookId: 'webhook_id',
    messageId: 'message_id',
    event: 'event',
    status: 'status',
    attempt: { column: 'attempt', as: Number },
    nextAttemptAt: 'next_attempt_at',
    statusCode: { column: 'status_code', as: (code) => (code === null ? null : Number(code)) },
    durationMs: { column: 'duration_ms', as: (ms) => (ms === null ? null : Number(ms)) },
    answer: 'answer',
    error: 'error',
    createdAt: 'created_at',
    completedAt: 'completed_at',
  },
  order: [
    { column: 'created_at', by: 'codeUnitsDescending' },
    { column: 'id', by: 'codeUnitsDescending' },
  ],
});
