import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/unit-of-work.js';
import { shownName } from '../users/shown-profile.js';

export type TransferStatus = 'pending' | 'accepted' | 'cancelled';

/** An ownership transfer with both people as the organization names them. */
export interface OwnershipTransferRecord {
  id: string;
  organization_id: string;
  status: TransferStatus;
  from_user_id: string;
  from_im_open_id: string;
  from_display_name: string;
  to_user_id: string;
  to_im_open_id: string;
  to_display_name: string;
  created_at: string;
  decided_at: string | null;
}

/** How many transfers the list shows: the pending one and the last ones decided. */
const LISTED = 50;

/** Ownership transfers: an OWNER's offer of the role, which its recipient accepts. */
export class OwnershipTransferStore {
  async list(db: Executor, organizationId: string): Promise<OwnershipTransferRecord[]> {
    return withPeople(db)
      .where('x.organization_id', organizationId)
      .orderBy([
        { column: 'x.created_at', order: 'desc' },
        { column: 'x.id', order: 'desc' },
      ])
      .limit(LISTED);
  }

  /** The transfer; `lock` holds its row until the transaction ends (PostgreSQL). */
  async find(
    db: Executor,
    organizationId: string,
    id: string,
    options: { lock?: boolean } = {},
  ): Promise<OwnershipTransferRecord | undefined> {
    if (options.lock) await db('ownership_transfers').where({ id }).forUpdate().first('id');
    return withPeople(db).where({ 'x.organization_id': organizationId, 'x.id': id }).first();
  }

  async hasPending(db: Executor, organizationId: string): Promise<boolean> {
    return (
      (await db('ownership_transfers').where({ organization_id: organizationId, status: 'pending' }).first('id')) !==
      undefined
    );
  }

  async insert(
    trx: Executor,
    input: { organizationId: string; fromUserId: string; toUserId: string },
    at: string,
  ): Promise<string> {
    const id = randomUUID();
    await trx('ownership_transfers').insert({
      id,
      organization_id: input.organizationId,
      from_user_id: input.fromUserId,
      to_user_id: input.toUserId,
      status: 'pending',
      created_at: at,
      decided_at: null,
    });
    return id;
  }

  async decide(trx: Executor, id: string, status: Exclude<TransferStatus, 'pending'>, at: string): Promise<void> {
    await trx('ownership_transfers').where({ id, status: 'pending' }).update({ status, decided_at: at });
  }
}

/** The transfers with both people's ids and names as their organization shows them. */
const withPeople = (db: Executor) =>
  db('ownership_transfers as x')
    .join('users as fu', 'fu.id', 'x.from_user_id')
    .leftJoin('memberships as fm', (on) =>
      on.on('fm.user_id', 'x.from_user_id').andOn('fm.organization_id', 'x.organization_id'),
    )
    .join('users as tu', 'tu.id', 'x.to_user_id')
    .leftJoin('memberships as tm', (on) =>
      on.on('tm.user_id', 'x.to_user_id').andOn('tm.organization_id', 'x.organization_id'),
    )
    .select<OwnershipTransferRecord[]>(
      'x.id',
      'x.organization_id',
      'x.status',
      'x.from_user_id',
      'fu.im_open_id as from_im_open_id',
      shownName(db, { user: 'fu', membership: 'fm' }, 'from_display_name'),
      'x.to_user_id',
      'tu.im_open_id as to_im_open_id',
      shownName(db, { user: 'tu', membership: 'tm' }, 'to_display_name'),
      'x.created_at',
      'x.decided_at',
    );
