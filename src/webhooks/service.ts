import { randomBytes, randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Schema } from '../api/types.js';
import { recordChange } from '../audit/trail.js';
import { webhookLabel } from '../audit/labels.js';
import { DAY_MS, type Clock } from '../config/clock.js';
import { type EnvelopeBinding, open, seal } from '../crypto/envelope.js';
import type { Keyring, KeyringSource } from '../crypto/keyring.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { badRequest, notFound, unprocessable } from '../errors/api-error.js';
import type { OutboundClient } from '../outbound/client.js';
import { decodeCursor, type Page, type PageRequest, pageOfRows } from '../shared/pagination.js';
import { isSubscribableEvent, PING } from './events.js';
import { deliveryPayload, newDelivery } from './outbox.js';
import { deliveryProjection, webhookProjection } from './projection.js';
import type { DeliveryRecord, NewDelivery, WebhookChanges, WebhookRecord, WebhookStore } from './store.js';

export type CreateWebhookInput = Schema<'CreateWebhookRequest'>;
export type UpdateWebhookInput = Schema<'UpdateWebhookRequest'>;

/** How long a rotated-out secret keeps signing beside the new one, so receivers can switch. */
export const PREVIOUS_SECRET_SIGNS_MS = DAY_MS;
const SECRET_BYTES = 32;
const DEFAULT_DELIVERY_PAGE = 100;

/**
 * Where a secret's envelope belongs: the organization, the endpoint and the secret's version, so
 * an envelope copied to another endpoint, or back over a newer version, does not open.
 */
const bindingOf = (organizationId: string, webhookId: string, version: number): EnvelopeBinding => ({
  organizationId,
  connectionId: `webhook:${webhookId}`,
  version,
});

/** A secret as Standard Webhooks libraries take it. */
const newSecret = () => `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;

const webhookNotFound = (id: string) =>
  notFound('webhook_not_found', `No webhook endpoint "${id}" in this organization.`);

/**
 * An organization's webhook endpoints. A secret is made here, answered once, and stored only
 * sealed by the keyring like connection credentials; each change is audited (a ping or a
 * redelivery an admin asks for too), and so delivered to the endpoints that subscribe to it,
 * this one included.
 */
export class WebhookService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: WebhookStore,
    private readonly keyrings: KeyringSource,
    private readonly outbound: OutboundClient,
    private readonly clock: Clock,
  ) {}

  list(organizationId: string): Promise<WebhookRecord[]> {
    return this.store.list(this.uow.executor, organizationId);
  }

  async create(organizationId: string, input: CreateWebhookInput): Promise<{ record: WebhookRecord; secret: string }> {
    const events = checkedEvents(input.events);
    await this.checkUrl(input.url);
    const keyring = await this.keyrings.keyring();
    const at = this.clock.now().toISOString();
    const id = randomUUID();
    const secret = newSecret();
    return this.uow.run(async (trx) => {
      const record: WebhookRecord = {
        id,
        organization_id: organizationId,
        url: input.url,
        description: input.description?.trim() ?? '',
        events: JSON.stringify(events),
        status: 'active',
        disabled_reason: null,
        secret_version: 1,
        created_at: at,
        updated_at: at,
      };
      await this.store.insert(trx, record);
      await this.sealSecret(trx, keyring, record, secret, at);
      await recordWebhookChange(trx, null, record);
      return { record, secret };
    });
  }

  async update(organizationId: string, id: string, input: UpdateWebhookInput): Promise<WebhookRecord> {
    const changes: WebhookChanges = {};
    if (input.url !== undefined) {
      await this.checkUrl(input.url);
      changes.url = input.url;
    }
    if (input.description !== undefined) changes.description = input.description.trim();
    if (input.events !== undefined) changes.events = JSON.stringify(checkedEvents(input.events));
    return this.uow.run(async (trx) => {
      const before = await this.requireWebhook(trx, organizationId, id, { lock: true });
      if (input.disabled === true && before.status === 'active') {
        changes.status = 'disabled';
        changes.disabled_reason = 'disabled by an admin';
      }
      if (input.disabled === false) {
        changes.status = 'active';
        changes.disabled_reason = null;
      }
      const candidate = { ...before, ...changes };
      if (isDeepStrictEqual(webhookProjection.toApi(candidate), webhookProjection.toApi(before))) return before;
      await this.store.update(trx, id, changes, this.clock.now().toISOString());
      const after = await this.requireWebhook(trx, organizationId, id);
      await recordWebhookChange(trx, before, after);
      return after;
    });
  }

  /** A new secret; the current one keeps signing beside it for PREVIOUS_SECRET_SIGNS_MS. */
  async rotateSecret(organizationId: string, id: string): Promise<{ record: WebhookRecord; secret: string }> {
    const keyring = await this.keyrings.keyring();
    const now = this.clock.now();
    const at = now.toISOString();
    const secret = newSecret();
    return this.uow.run(async (trx) => {
      const before = await this.requireWebhook(trx, organizationId, id, { lock: true });
      const version = Number(before.secret_version) + 1;
      await this.store.expireCurrentSecret(trx, id, new Date(now.getTime() + PREVIOUS_SECRET_SIGNS_MS).toISOString());
      await this.store.update(trx, id, { secret_version: version }, at);
      const after = await this.requireWebhook(trx, organizationId, id);
      await this.sealSecret(trx, keyring, after, secret, at);
      await recordWebhookChange(trx, before, after);
      return { record: after, secret };
    });
  }

  async delete(organizationId: string, id: string): Promise<void> {
    await this.uow.run(async (trx) => {
      const before = await this.requireWebhook(trx, organizationId, id, { lock: true });
      await this.store.delete(trx, id);
      await recordWebhookChange(trx, before, null);
    });
  }

  /** Queues a `ping` to the endpoint, whatever it subscribes to. */
  async test(organizationId: string, id: string): Promise<DeliveryRecord> {
    const at = this.clock.now().toISOString();
    return this.uow.run(async (trx) => {
      const webhook = await this.requireWebhook(trx, organizationId, id);
      const payload = deliveryPayload(PING, at, { webhookId: webhook.id });
      return this.queue(trx, newDelivery({ id, organizationId }, PING, payload, at));
    });
  }

  /** Queues a delivery's payload again, as a new delivery with the same message id. */
  async redeliver(organizationId: string, webhookId: string, deliveryId: string): Promise<DeliveryRecord> {
    const at = this.clock.now().toISOString();
    return this.uow.run(async (trx) => {
      await this.requireWebhook(trx, organizationId, webhookId);
      const original = await this.store.findDelivery(trx, webhookId, deliveryId);
      if (!original) throw notFound('delivery_not_found', `No delivery "${deliveryId}" of this webhook endpoint.`);
      const again = newDelivery(
        { id: webhookId, organizationId },
        original.event,
        original.payload,
        at,
        original.message_id,
      );
      return this.queue(trx, again);
    });
  }

  async listDeliveries(organizationId: string, webhookId: string, page: PageRequest): Promise<Page<DeliveryRecord>> {
    await this.requireWebhook(this.uow.executor, organizationId, webhookId);
    const limit = page.limit ?? DEFAULT_DELIVERY_PAGE;
    const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor, 2);
    const rows = await this.store.listDeliveries(this.uow.executor, webhookId, limit + 1, after);
    return pageOfRows(rows, limit, deliveryProjection.keyOfRow);
  }

  /** The secrets that sign a delivery made now: the current one, and a rotated-out one still in its grace. */
  async signingSecrets(webhook: { id: string; organization_id: string }): Promise<string[]> {
    const keyring = await this.keyrings.keyring();
    const at = this.clock.now().toISOString();
    const sealed = await this.store.signingSecrets(this.uow.executor, webhook.id, at);
    return sealed.map(({ version, envelope }) =>
      open(envelope, bindingOf(webhook.organization_id, webhook.id, version), keyring).toString('utf8'),
    );
  }

  /** Writes a delivery an admin asked for (a ping, a redelivery), audited as the change it is. */
  private async queue(trx: Executor, delivery: NewDelivery): Promise<DeliveryRecord> {
    await this.store.insertDeliveries(trx, [delivery]);
    const queued = (await this.store.findDelivery(trx, delivery.webhookId, delivery.id))!;
    await recordChange(trx, {
      organizationId: delivery.organizationId,
      target: { type: 'webhook_delivery', id: queued.id, label: queued.event },
      before: null,
      after: deliveryProjection.toApi(queued),
    });
    return queued;
  }

  private async sealSecret(trx: Executor, keyring: Keyring, record: WebhookRecord, secret: string, at: string) {
    const version = Number(record.secret_version);
    const envelope = seal(Buffer.from(secret, 'utf8'), bindingOf(record.organization_id, record.id, version), keyring);
    await this.store.insertSecret(trx, record.id, version, envelope, at);
  }

  /** 422 `url_not_allowed` with the reason, for a URL the outbound client would refuse to call. */
  private async checkUrl(url: string): Promise<void> {
    const checked = await this.outbound.check(url);
    if ('refused' in checked) throw unprocessable('url_not_allowed', `The webhook URL ${checked.reason}.`);
  }

  private async requireWebhook(
    db: Executor,
    organizationId: string,
    id: string,
    options: { lock?: boolean } = {},
  ): Promise<WebhookRecord> {
    const found = await this.store.find(db, organizationId, id, options);
    if (!found) throw webhookNotFound(id);
    return found;
  }
}

/** The events without duplicates, each one a change can be (400 naming the first that is not). */
function checkedEvents(events: readonly string[]): string[] {
  events.forEach((event, index) => {
    if (!isSubscribableEvent(event)) {
      throw badRequest(`"${event}" is not an event a change can have.`, [
        {
          path: `/body/events/${index}`,
          message: 'must be an operationId that changes state, hub.*, budget.threshold or *',
        },
      ]);
    }
  });
  return [...new Set(events)];
}

async function recordWebhookChange(trx: Executor, before: WebhookRecord | null, after: WebhookRecord | null) {
  const row = (after ?? before)!;
  await recordChange(trx, {
    organizationId: row.organization_id,
    target: { type: 'webhook', id: row.id, label: webhookLabel(row.url) },
    before: before && webhookProjection.toApi(before),
    after: after && webhookProjection.toApi(after),
  });
}
