import type { Executor } from '../db/unit-of-work.js';

/** An organization waiting for its first OWNER: whoever first signs in through `providerId` as `email`. */
export interface PendingOwner {
  organizationId: string;
  /** Lower case, as sign-ins compare it. */
  email: string;
  providerId: string;
  createdAt: string;
}

interface PendingOwnerRow {
  organization_id: string;
  email: string;
  provider_id: string;
  created_at: string;
}

const fromRow = (row: PendingOwnerRow): PendingOwner => ({
  organizationId: row.organization_id,
  email: row.email,
  providerId: row.provider_id,
  createdAt: row.created_at,
});

/** `organization_pending_owners`: at most one per organization. */
export class PendingOwnerStore {
  async insert(trx: Executor, owner: PendingOwner): Promise<void> {
    await trx('organization_pending_owners').insert({
      organization_id: owner.organizationId,
      email: owner.email,
      provider_id: owner.providerId,
      created_at: owner.createdAt,
    });
  }

  /** The organizations waiting for the person who signs in through `providerId` as `email`. */
  async waitingFor(db: Executor, providerId: string, email: string): Promise<PendingOwner[]> {
    const rows = await db('organization_pending_owners')
      .where({ provider_id: providerId, email: email.toLowerCase() })
      .orderBy('organization_id')
      .select<PendingOwnerRow[]>('*');
    return rows.map(fromRow);
  }

  /** Every organization still waiting, by id, for the operator's list. */
  async byOrganization(db: Executor): Promise<Map<string, PendingOwner>> {
    const rows = await db('organization_pending_owners').select<PendingOwnerRow[]>('*');
    return new Map(rows.map((row) => [row.organization_id, fromRow(row)]));
  }

  /** Takes the organization's pending owner, once: false when another sign-in or an invitation took it first. */
  async take(trx: Executor, organizationId: string): Promise<boolean> {
    return (await trx('organization_pending_owners').where({ organization_id: organizationId }).delete()) > 0;
  }
}
