import { isDeepStrictEqual } from 'node:util';
import type { Schema } from '../api/types.js';
import { recordChange } from '../audit/trail.js';
import { type Clock, DAY_MS } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { ApiError, conflict, forbidden, notFound } from '../errors/api-error.js';
import type { MemberStore } from '../members/store.js';
import { projection } from '../shared/projection.js';
import type { OrgAccessResolver } from './org-access-resolver.js';
import { organizationProjection } from './projection.js';
import type { OrganizationRecord, OrganizationStore, OrgAccess } from './store.js';
import type { OwnershipTransferRecord, OwnershipTransferStore } from './transfer-store.js';

/** How long a deleted organization can be restored, and an old slug keeps leading to its organization. */
export const GRACE_DAYS = 30;

/** An ownership transfer as the API shows it, and as its audit events record it. */
export const ownershipTransferProjection = projection<OwnershipTransferRecord, Schema<'OwnershipTransfer'>>()({
  fields: {
    id: 'id',
    status: 'status',
    from: { object: { userId: 'from_user_id', imOpenId: 'from_im_open_id', displayName: 'from_display_name' } },
    to: { object: { userId: 'to_user_id', imOpenId: 'to_im_open_id', displayName: 'to_display_name' } },
    createdAt: 'created_at',
    decidedAt: 'decided_at',
  },
});

const toTransfer = ownershipTransferProjection.toApi;

/**
 * The organization's life: its name and slug, who owns it, and its end — a deletion that can be
 * restored for `GRACE_DAYS`, then the purge (src/orgs/purge.ts). Who may call each is the
 * operation's rule (`orgOwner` for rename, delete, restore and offering the ownership); what is
 * decided here is decided again on the rows each change locks.
 */
export class OrganizationLifecycle {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly orgs: OrganizationStore,
    private readonly transfers: OwnershipTransferStore,
    private readonly members: MemberStore,
    private readonly access: OrgAccessResolver,
    private readonly clock: Clock,
  ) {}

  /** Renames the organization; an old slug leads here for `GRACE_DAYS`. */
  async rename(organizationId: string, patch: Schema<'RenameOrganizationRequest'>): Promise<OrganizationRecord> {
    const now = this.clock.now();
    const renamed = await this.uow.run(async (trx) => {
      const before = await this.requireOrganization(trx, organizationId);
      const name = patch.name === undefined ? before.name : patch.name.trim();
      if (!name) throw new ApiError(400, 'validation_failed', 'The organization name must not be blank.');
      const slug = patch.slug ?? before.slug;
      if (slug !== before.slug && (await this.orgs.slugExists(trx, slug, now))) {
        throw conflict(
          'slug_taken',
          `The organization slug "${slug}" is taken, or was given up less than ${GRACE_DAYS} days ago.`,
        );
      }
      const redirectUntil = new Date(now.getTime() + GRACE_DAYS * DAY_MS).toISOString();
      await this.orgs.rename(trx, before, { name, slug }, now.toISOString(), redirectUntil);
      const after = await this.requireOrganization(trx, organizationId);
      await recordOrganizationChange(trx, before, after);
      return after;
    });
    await this.access.invalidate();
    return renamed;
  }

  /** Starts the deletion: read-only until `purgeAt`, then purged; restorable meanwhile. */
  async delete(organizationId: string): Promise<OrganizationRecord> {
    const now = this.clock.now();
    return this.changeDeletion(organizationId, (before) => {
      if (before.status === 'DELETING') throw deletingConflict(before);
      return { at: now.toISOString(), purgeAt: new Date(now.getTime() + GRACE_DAYS * DAY_MS).toISOString() };
    });
  }

  async restore(organizationId: string): Promise<OrganizationRecord> {
    return this.changeDeletion(organizationId, (before) => {
      if (before.status !== 'DELETING')
        throw conflict(
          'organization_not_deleting',
          'The organization is not being deleted: there is nothing to restore.',
        );
      return null;
    });
  }

  listTransfers(organizationId: string): Promise<Schema<'OwnershipTransfer'>[]> {
    return this.transfers.list(this.uow.reader, organizationId).then((rows) => rows.map(toTransfer));
  }

  /** An OWNER offers their ownership to an active member, who accepts it (one pending at a time). */
  async offer(organizationId: string, fromUserId: string, toUserId: string): Promise<Schema<'OwnershipTransfer'>> {
    const at = this.clock.now().toISOString();
    return this.uow.run(async (trx) => {
      const owners = await this.members.lockActiveOwnerIds(trx, organizationId);
      if (!owners.includes(fromUserId)) throw forbidden('owner_required', 'Only an OWNER may offer the ownership.');
      const recipient = await this.members.findActive(trx, organizationId, toUserId);
      if (!recipient) throw notFound('member_not_found', `No active member with the user id "${toUserId}".`);
      if (recipient.role === 'OWNER') throw conflict('already_owner', `${recipient.display_name} is an OWNER already.`);
      if (await this.transfers.hasPending(trx, organizationId)) {
        throw conflict('transfer_pending', 'Another ownership transfer is pending: cancel it first.');
      }
      const id = await this.transfers.insert(trx, { organizationId, fromUserId, toUserId }, at);
      const created = await this.requireTransfer(trx, organizationId, id);
      await recordTransferChange(trx, null, created);
      return toTransfer(created);
    });
  }

  /**
   * The recipient accepts: they become an OWNER and the OWNER who offered becomes an ADMIN (while
   * still an active OWNER), in one transaction.
   */
  async accept(organizationId: string, transferId: string, userId: string): Promise<Schema<'OwnershipTransfer'>> {
    const at = this.clock.now().toISOString();
    const accepted = await this.uow.run(async (trx) => {
      const owners = await this.members.lockActiveOwnerIds(trx, organizationId);
      const before = await this.requirePending(trx, organizationId, transferId);
      if (before.to_user_id !== userId) throw notYours('accept');
      await this.members.setRole(trx, organizationId, userId, 'OWNER');
      if (owners.includes(before.from_user_id) && before.from_user_id !== userId) {
        await this.members.setRole(trx, organizationId, before.from_user_id, 'ADMIN');
      }
      await this.transfers.decide(trx, transferId, 'accepted', at);
      const after = await this.requireTransfer(trx, organizationId, transferId);
      await recordTransferChange(trx, before, after);
      return toTransfer(after);
    });
    await this.access.invalidate();
    return accepted;
  }

  /** An OWNER withdraws the pending transfer, or its recipient declines it. */
  async cancel(access: OrgAccess, transferId: string, userId: string): Promise<Schema<'OwnershipTransfer'>> {
    const organizationId = access.organization.id;
    const at = this.clock.now().toISOString();
    return this.uow.run(async (trx) => {
      const before = await this.requirePending(trx, organizationId, transferId);
      if (access.role !== 'OWNER' && before.to_user_id !== userId) throw notYours('cancel');
      await this.transfers.decide(trx, transferId, 'cancelled', at);
      const after = await this.requireTransfer(trx, organizationId, transferId);
      await recordTransferChange(trx, before, after);
      return toTransfer(after);
    });
  }

  private async changeDeletion(
    organizationId: string,
    next: (before: OrganizationRecord) => { at: string; purgeAt: string } | null,
  ): Promise<OrganizationRecord> {
    const changed = await this.uow.run(async (trx) => {
      const before = await this.requireOrganization(trx, organizationId);
      await this.orgs.setDeletion(trx, organizationId, next(before));
      const after = await this.requireOrganization(trx, organizationId);
      await recordOrganizationChange(trx, before, after);
      return after;
    });
    // Every instance's cached memberships carry the status the read-only stage asks.
    await this.access.invalidate();
    return changed;
  }

  private async requireOrganization(trx: Executor, organizationId: string): Promise<OrganizationRecord> {
    const org = await this.orgs.findById(trx, organizationId, { lock: true });
    if (!org) throw notFound('org_not_found', 'No such organization.');
    return org;
  }

  private async requireTransfer(trx: Executor, organizationId: string, id: string): Promise<OwnershipTransferRecord> {
    const transfer = await this.transfers.find(trx, organizationId, id);
    if (!transfer) throw notFound('transfer_not_found', `No ownership transfer ${id} in this organization.`);
    return transfer;
  }

  private async requirePending(trx: Executor, organizationId: string, id: string): Promise<OwnershipTransferRecord> {
    if (!(await this.transfers.find(trx, organizationId, id, { lock: true })))
      throw notFound('transfer_not_found', `No ownership transfer ${id} in this organization.`);
    const transfer = await this.requireTransfer(trx, organizationId, id);
    if (transfer.status !== 'pending')
      throw conflict('transfer_not_pending', `The ownership transfer was ${transfer.status} already.`);
    return transfer;
  }
}

/** 409 `organization_deleting`: what every write to an organization being deleted gets. */
export function deletingConflict(org: Pick<OrganizationRecord, 'purge_at'>): ApiError {
  return conflict(
    'organization_deleting',
    `The organization is being deleted and is read-only until it is removed for good at ${org.purge_at}; ` +
      'an OWNER can restore it until then.',
  );
}

const notYours = (what: string) =>
  forbidden(
    'transfer_not_yours',
    what === 'accept'
      ? 'Only the member the ownership is offered to may accept it.'
      : 'Only an OWNER or the member the ownership is offered to may cancel it.',
  );

async function recordOrganizationChange(
  trx: Executor,
  before: OrganizationRecord,
  after: OrganizationRecord,
): Promise<void> {
  const shown = { before: organizationProjection.toApi(before), after: organizationProjection.toApi(after) };
  if (isDeepStrictEqual(shown.before, shown.after)) return;
  await recordChange(trx, {
    organizationId: after.id,
    target: { type: 'organization', id: after.id, label: after.name },
    ...shown,
  });
}

const recordTransferChange = (trx: Executor, before: OwnershipTransferRecord | null, after: OwnershipTransferRecord) =>
  recordChange(trx, {
    organizationId: after.organization_id,
    target: { type: 'ownership_transfer', id: after.id, label: after.to_display_name },
    before: before && toTransfer(before),
    after: toTransfer(after),
  });
