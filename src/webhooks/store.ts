import { ENVELOPE_COLUMNS, envelopeColumns, envelopeOfColumns } from '../crypto/envelope-columns.js';
import type { Envelope } from '../crypto/envelope.js';
import type { KeyUsage } from '../crypto/keyring.js';
import { isPostgres } from '../db/connect.js';
import { sealedKeyUsage } from '../db/sealed-key-usage.js';
import type { Executor } from '../db/unit-of-work.js';
import type { CursorKey } from '../shared/pagination.js';

export interface WebhookRecord {
  id: string;
  organization_id: string;
  url: string;
  description: string;
  events: string;
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  secret_version: number;
  created_at: string;
  updated_at: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryRecord {
  id: string;
  organization_id: string;
  webhook_id: string;
  message_id: string;
  event: string;
  payload: string;
  status: DeliveryStatus;
  attempt: number;
  next_attempt_at: string | null;
  lease_until: string | null;
  lease_token: string | null;
  status_code: number | null;
  duration_ms: number | null;
  answer: string | null;
  error: string | null;
  created_at: string;
  completed_at: string | null;
}

/** A delivery to make, as the outbox writes it: due at once, no attempt yet. */
export interface NewDelivery {
  id: string;
  organizationId: string;
  webhookId: string;
  messageId: string;
  event: string;
  payload: string;
  at: string;
}

/** A claimed delivery with where it goes. */
export interface ClaimedDelivery extends DeliveryRecord {
  url: string;
}

/** What one attempt came to, as the delivery row keeps it. */
export interface AttemptRecord {
  status: DeliveryStatus;
  nextAttemptAt: string | null;
  statusCode: number | null;
  durationMs: number | null;
  answer: string | null;
  error: string | null;
  completedAt: string | null;
}

export type WebhookChanges = Partial<
  Pick<WebhookRecord, 'url' | 'description' | 'events' | 'status' | 'disabled_reason' | 'secret_version'>
>;

/** Webhook endpoints, their sealed secrets and the outbox of deliveries. */
export class WebhookStore {
  async insert(trx: Executor, row: WebhookRecord): Promise<void> {
    await trx('webhooks').insert(row);
  }

  /** The endpoint, locked for the rest of the transaction when asked (PostgreSQL; SQLite has one writer). */
  async find(
    db: Executor,
    organizationId: string,
    id: string,
    options: { lock?: boolean } = {},
  ): Promise<WebhookRecord | undefined> {
    const query = db('webhooks').where({ organization_id: organizationId, id });
    if (options.lock && isPostgres(db)) query.forUpdate();
    return query.first<WebhookRecord | undefined>();
  }

  list(db: Executor, organizationId: string): Promise<WebhookRecord[]> {
    return db('webhooks').where({ organization_id: organizationId }).select<WebhookRecord[]>('*');
  }

  /** The active endpoints of an organization and what each subscribes to: what the outbox matches. */
  active(db: Executor, organizationId: string): Promise<Pick<WebhookRecord, 'id' | 'events'>[]> {
    return db('webhooks').where({ organization_id: organizationId, status: 'active' }).select('id', 'events');
  }

  async update(trx: Executor, id: string, changes: WebhookChanges, at: string): Promise<void> {
    await trx('webhooks')
      .where({ id })
      .update({ ...changes, updated_at: at });
  }

  async delete(trx: Executor, id: string): Promise<void> {
    // Its secrets and deliveries go with it by the foreign keys' cascade.
    await trx('webhooks').where({ id }).delete();
  }

  async insertSecret(trx: Executor, webhookId: string, version: number, envelope: Envelope, at: string) {
    await trx('webhook_secrets').insert({
      webhook_id: webhookId,
      version,
      ...envelopeColumns(envelope),
      created_at: at,
      expires_at: null,
    });
  }

  /** Gives the current secret an end: it keeps signing beside the next one until `expiresAt`. */
  async expireCurrentSecret(trx: Executor, webhookId: string, expiresAt: string): Promise<void> {
    await trx('webhook_secrets').where({ webhook_id: webhookId }).whereNull('expires_at').update({
      expires_at: expiresAt,
    });
  }

  /** The envelopes of the secrets that sign at `at`, newest first. */
  async signingSecrets(
    db: Executor,
    webhookId: string,
    at: string,
  ): Promise<{ version: number; envelope: Envelope }[]> {
    const rows = await db('webhook_secrets')
      .where({ webhook_id: webhookId })
      .where((q) => q.whereNull('expires_at').orWhere('expires_at', '>', at))
      .orderBy('version', 'desc')
      .select<Array<Record<(typeof ENVELOPE_COLUMNS)[number] | 'version', unknown>>>('version', ...ENVELOPE_COLUMNS);
    return rows.map((row) => ({ version: Number(row.version), envelope: envelopeOfColumns(row) }));
  }

  keyUsage(db: Executor): Promise<KeyUsage[]> {
    return sealedKeyUsage(db, 'webhook_secrets');
  }

  async insertDeliveries(trx: Executor, deliveries: readonly NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await trx('webhook_deliveries').insert(
      deliveries.map((d) => ({
        id: d.id,
        organization_id: d.organizationId,
        webhook_id: d.webhookId,
        message_id: d.messageId,
        event: d.event,
        payload: d.payload,
        status: 'pending',
        attempt: 0,
        next_attempt_at: d.at,
        created_at: d.at,
      })),
    );
  }

  findDelivery(db: Executor, webhookId: string, id: string): Promise<DeliveryRecord | undefined> {
    return db('webhook_deliveries').where({ webhook_id: webhookId, id }).first<DeliveryRecord | undefined>();
  }

  /** Up to `limit` deliveries of the endpoint after the cursor's key, newest first. */
  listDeliveries(db: Executor, webhookId: string, limit: number, after: CursorKey | undefined) {
    const query = db('webhook_deliveries').where({ webhook_id: webhookId });
    if (after) {
      const [createdAt, id] = after as [string, string];
      query.where((q) =>
        q.where('created_at', '<', createdAt).orWhere((q2) => q2.where({ created_at: createdAt }).where('id', '<', id)),
      );
    }
    return query
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit)
      .select<DeliveryRecord[]>('*');
  }

  /**
   * Claims up to `limit` due deliveries for `leaseToken` until `leaseUntil`: pending, due, not
   * leased to another dispatcher (or its lease ran out), and to an active endpoint (a `ping` goes
   * to a disabled one too). On PostgreSQL the rows are locked `FOR UPDATE SKIP LOCKED`, so two
   * instances claiming at once take different rows; SQLite has one writer.
   */
  async claimDue(
    trx: Executor,
    now: string,
    leaseUntil: string,
    leaseToken: string,
    limit: number,
  ): Promise<ClaimedDelivery[]> {
    const due = trx('webhook_deliveries as d')
      .join('webhooks as w', 'w.id', 'd.webhook_id')
      .where('d.status', 'pending')
      .where('d.next_attempt_at', '<=', now)
      .where((q) => q.whereNull('d.lease_until').orWhere('d.lease_until', '<=', now))
      .where((q) => q.where('w.status', 'active').orWhere('d.event', 'ping'))
      .orderBy([{ column: 'd.next_attempt_at' }, { column: 'd.id' }])
      .limit(limit);
    if (isPostgres(trx)) due.forUpdate('d').skipLocked();
    const ids = (await due.select<{ id: string }[]>('d.id')).map((row) => row.id);
    if (ids.length === 0) return [];
    await trx('webhook_deliveries').whereIn('id', ids).update({ lease_until: leaseUntil, lease_token: leaseToken });
    return trx('webhook_deliveries as d')
      .join('webhooks as w', 'w.id', 'd.webhook_id')
      .whereIn('d.id', ids)
      .select<ClaimedDelivery[]>('d.*', 'w.url');
  }

  /**
   * Records an attempt and ends the lease; false when the lease was no longer this dispatcher's
   * (it ran out and another instance claimed the row), in which case nothing is written.
   */
  async recordAttempt(db: Executor, id: string, leaseToken: string, attempt: AttemptRecord): Promise<boolean> {
    const updated = await db('webhook_deliveries')
      .where({ id, lease_token: leaseToken })
      .update({
        status: attempt.status,
        attempt: db.raw('attempt + 1'),
        next_attempt_at: attempt.nextAttemptAt,
        status_code: attempt.statusCode,
        duration_ms: attempt.durationMs,
        answer: attempt.answer,
        error: attempt.error,
        completed_at: attempt.completedAt,
        lease_until: null,
        lease_token: null,
      });
    return updated === 1;
  }

  /** How many deliveries wait, and when the oldest of them was written. */
  async queue(db: Executor): Promise<{ depth: number; oldestCreatedAt: string | null }> {
    const row = await db('webhook_deliveries')
      .where({ status: 'pending' })
      .first<{ depth: number | string; oldest: string | null }>(
        db.raw('count(*) as depth'),
        db.raw('min(created_at) as oldest'),
      );
    return { depth: Number(row?.depth ?? 0), oldestCreatedAt: row?.oldest ?? null };
  }
}
