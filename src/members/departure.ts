import type { Executor } from '../db/unit-of-work.js';
import { webhookLabel } from '../audit/labels.js';

export interface DepartureItemRecord {
  id: string;
  label: string;
}

/**
 * What a member created that stays when they leave. Webhooks and budgets keep no creator of their
 * own; the audit log knows who created each (the member, or one of their tokens), and the ones
 * still there are the organization's to keep.
 */
export class DepartureStore {
  async createdBy(
    db: Executor,
    organizationId: string,
    actorIds: readonly string[],
  ): Promise<{ webhooks: DepartureItemRecord[]; budgets: DepartureItemRecord[] }> {
    const created = (action: string) =>
      db('audit_events')
        .where({ organization_id: organizationId, action })
        .whereIn('actor_id', actorIds)
        .select('target_id');
    const webhooks = await db('webhooks')
      .where({ organization_id: organizationId })
      .whereIn('id', created('createWebhook'))
      .orderBy('created_at')
      .select<{ id: string; url: string }[]>('id', 'url');
    const budgets = await db('budgets')
      .where({ organization_id: organizationId })
      .whereIn('id', created('createBudget'))
      .orderBy('created_at')
      .select<DepartureItemRecord[]>('id', 'name as label');
    return { webhooks: webhooks.map((w) => ({ id: w.id, label: webhookLabel(w.url) })), budgets };
  }
}
