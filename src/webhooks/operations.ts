import type { OperationModule } from '../http/operation-table.js';
import { deliveryProjection, webhookProjection } from './projection.js';
import type { WebhookService } from './service.js';

const { toApi: toWebhook } = webhookProjection;
const { toApi: toDelivery } = deliveryProjection;

/** Webhook endpoints and their deliveries (docs/decisions.md, "Webhooks"). Org admins only. */
export function webhookOperations(webhooks: WebhookService) {
  return {
    listWebhooks: {
      rule: 'orgAdmin',
      async handle(ctx) {
        const records = await webhooks.list(ctx.access.organization.id);
        const { items, nextCursor } = webhookProjection.pageOf(records, ctx.query);
        return { webhooks: items, nextCursor };
      },
    },

    createWebhook: {
      rule: 'orgAdmin',
      status: 201,
      async handle(ctx) {
        const { record, secret } = await webhooks.create(ctx.access.organization.id, ctx.body);
        return { ...toWebhook(record), secret };
      },
    },

    updateWebhook: {
      rule: 'orgAdmin',
      handle: async (ctx) =>
        toWebhook(await webhooks.update(ctx.access.organization.id, ctx.params.webhookId, ctx.body)),
    },

    rotateWebhookSecret: {
      rule: 'orgAdmin',
      async handle(ctx) {
        const { record, secret } = await webhooks.rotateSecret(ctx.access.organization.id, ctx.params.webhookId);
        return { ...toWebhook(record), secret };
      },
    },

    deleteWebhook: {
      rule: 'orgAdmin',
      status: 204,
      async handle(ctx) {
        await webhooks.delete(ctx.access.organization.id, ctx.params.webhookId);
        return undefined;
      },
    },

    testWebhook: {
      rule: 'orgAdmin',
      status: 201,
      handle: async (ctx) => toDelivery(await webhooks.test(ctx.access.organization.id, ctx.params.webhookId)),
    },

    listWebhookDeliveries: {
      rule: 'orgAdmin',
      async handle(ctx) {
        const { items, nextCursor } = await webhooks.listDeliveries(
          ctx.access.organization.id,
          ctx.params.webhookId,
          ctx.query,
        );
        return { deliveries: items.map(toDelivery), nextCursor };
      },
    },

    redeliverWebhookDelivery: {
      rule: 'orgAdmin',
      status: 201,
      handle: async (ctx) =>
        toDelivery(await webhooks.redeliver(ctx.access.organization.id, ctx.params.webhookId, ctx.params.deliveryId)),
    },
  } satisfies OperationModule;
}
