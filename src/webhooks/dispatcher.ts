import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { recordChange } from '../audit/trail.js';
import { webhookLabel } from '../audit/labels.js';
import { withAuditScope } from '../audit/scope.js';
import type { Clock } from '../config/clock.js';
import type { WebhookDeliverySettings } from '../config/config.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import type { Logger } from '../log/logger.js';
import type { OutboundClient, OutboundResult } from '../outbound/client.js';
import { WEBHOOK_DISABLED } from './events.js';
import { webhookProjection } from './projection.js';
import type { WebhookService } from './service.js';
import type { AttemptRecord, ClaimedDelivery, WebhookStore } from './store.js';

/** What one attempt came to: delivered, to be tried again, or given up (`failed`). */
export type AttemptOutcome = 'delivered' | 'retrying' | 'failed';
export const ATTEMPT_OUTCOMES: readonly AttemptOutcome[] = ['delivered', 'retrying', 'failed'];

/** Deliveries claimed and sent at once by one dispatcher. */
const BATCH = 10;
const GONE = 410;
const SYSTEM = { type: 'system', id: null, displayName: 'system' } as const;

export interface DispatcherDeps {
  uow: UnitOfWork;
  store: WebhookStore;
  webhooks: Pick<WebhookService, 'signingSecrets'>;
  outbound: OutboundClient;
  clock: Clock;
  logger: Logger;
  settings: WebhookDeliverySettings;
}

/**
 * Sends the outbox's due deliveries, in every `hub serve`. A delivery is claimed for a lease
 * (`settings.leaseMs`) before it is sent, so instances sharing a database never send the same
 * attempt twice, and one that dies mid-send leaves the row to another once the lease has run out:
 * at least once, with the same `webhook-id` on every attempt. A 2xx answer delivers; anything
 * else is tried again after each of `settings.retryDelaysMs`, then the delivery has `failed`;
 * a 410 Gone fails it at once and disables the endpoint. Time is the clock's, so tests move it.
 */
export class WebhookDispatcher {
  /** Attempts made by this process, by outcome (`/metrics`). */
  readonly outcomes: Record<AttemptOutcome, number> = { delivered: 0, retrying: 0, failed: 0 };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(private readonly deps: DispatcherDeps) {}

  /** Looks for due deliveries every `settings.pollMs`, at once again after a full batch. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops looking and waits for the attempts in progress to be recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Claims one batch of due deliveries and sends them; resolves with how many were claimed. */
  async runOnce(): Promise<number> {
    const { uow, store, clock, settings } = this.deps;
    const now = clock.now();
    const leaseUntil = new Date(now.getTime() + settings.leaseMs).toISOString();
    const token = randomUUID();
    const claimed = await uow.run((trx) => store.claimDue(trx, now.toISOString(), leaseUntil, token, BATCH));
    await Promise.all(claimed.map((delivery) => this.attempt(delivery, token)));
    return claimed.length;
  }

  /** How many deliveries wait, and the age in seconds of the oldest of them (0 when none). */
  async queue(): Promise<{ depth: number; oldestAgeSeconds: number }> {
    const { depth, oldestCreatedAt } = await this.deps.store.queue(this.deps.uow.reader);
    const age = oldestCreatedAt ? (this.deps.clock.now().getTime() - Date.parse(oldestCreatedAt)) / 1000 : 0;
    return { depth, oldestAgeSeconds: Math.max(0, age) };
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const tick = this.runOnce().then(
        (claimed) => this.schedule(claimed === BATCH ? 0 : this.deps.settings.pollMs),
        (err: unknown) => {
          this.deps.logger.warn({ err }, 'webhook dispatch failed; trying again');
          this.schedule(this.deps.settings.pollMs);
        },
      );
      this.running = tick;
    }, delayMs);
    this.timer.unref();
  }

  private async attempt(delivery: ClaimedDelivery, token: string): Promise<void> {
    const { store, uow, clock, logger } = this.deps;
    const result = await this.send(delivery);
    const outcome = this.outcomeOf(delivery, result);
    const recorded = await store.recordAttempt(uow.executor, delivery.id, token, outcome.record);
    if (!recorded) {
      // The lease ran out during the call and another instance has the row: its attempt counts.
      logger.warn({ deliveryId: delivery.id }, 'webhook delivery lease lost before its attempt was recorded');
      return;
    }
    this.outcomes[outcome.outcome] += 1;
    if (result.outcome === 'answered' && result.status === GONE) await this.disableGone(delivery, clock.now());
  }

  /** Signs with every secret that signs now (two during a rotation's grace) and makes the call. */
  private async send(delivery: ClaimedDelivery): Promise<OutboundResult> {
    const { webhooks, outbound, clock } = this.deps;
    let signature: string;
    const at = clock.now();
    try {
      const secrets = await webhooks.signingSecrets({
        id: delivery.webhook_id,
        organization_id: delivery.organization_id,
      });
      signature = secrets
        .map((secret) => new Webhook(secret).sign(delivery.message_id, at, delivery.payload))
        .join(' ');
    } catch (err) {
      this.deps.logger.error({ err, deliveryId: delivery.id }, 'a webhook secret could not be opened');
      return { outcome: 'failed', reason: 'the signing secret could not be opened', durationMs: 0 };
    }
    return outbound.send({
      url: delivery.url,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'agent-hub-webhooks',
        'webhook-id': delivery.message_id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: delivery.payload,
    });
  }

  private outcomeOf(
    delivery: ClaimedDelivery,
    result: OutboundResult,
  ): { outcome: AttemptOutcome; record: AttemptRecord } {
    const now = this.deps.clock.now();
    const delays = this.deps.settings.retryDelaysMs;
    const answered = result.outcome === 'answered';
    const common = {
      statusCode: answered ? result.status : null,
      durationMs: result.durationMs,
      answer: answered ? result.body : null,
      error: answered ? null : result.reason,
    };
    const final = (outcome: 'delivered' | 'failed') => ({
      outcome,
      record: { ...common, status: outcome, nextAttemptAt: null, completedAt: now.toISOString() },
    });
    if (answered && result.status >= 200 && result.status < 300) return final('delivered');
    // A refused address or a receiver that is gone will not get better by waiting.
    if (result.outcome === 'refused' || (answered && result.status === GONE)) return final('failed');
    const made = Number(delivery.attempt);
    if (made >= delays.length) return final('failed');
    const nextAttemptAt = new Date(now.getTime() + delays[made]!).toISOString();
    return { outcome: 'retrying', record: { ...common, status: 'pending', nextAttemptAt, completedAt: null } };
  }

  /** A receiver that answers 410 Gone asks for no more: the endpoint is disabled, audited as the system's act. */
  private async disableGone(delivery: ClaimedDelivery, at: Date): Promise<void> {
    const { uow, store } = this.deps;
    const scope = { actor: SYSTEM, at, action: WEBHOOK_DISABLED, requestId: null };
    await withAuditScope(scope, () =>
      uow.run(async (trx) => {
        const before = await store.find(trx, delivery.organization_id, delivery.webhook_id, { lock: true });
        if (!before || before.status === 'disabled') return;
        const reason = 'the receiver answered 410 Gone';
        await store.update(trx, before.id, { status: 'disabled', disabled_reason: reason }, at.toISOString());
        const after = (await store.find(trx, delivery.organization_id, delivery.webhook_id))!;
        await recordChange(trx, {
          organizationId: before.organization_id,
          target: { type: 'webhook', id: before.id, label: webhookLabel(before.url) },
          before: webhookProjection.toApi(before),
          after: webhookProjection.toApi(after),
        });
      }),
    );
  }
}
