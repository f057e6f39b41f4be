import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connect.js';
import type { Schema } from '../http/operation-types.js';
import type { OrgRole } from '../orgs/store.js';
import { byCodeUnits, byName } from '../shared/order.js';

export type OrgMember = Schema<'OrgMember'>;

interface OrgMemberRecord {
  user_id: string;
  im_open_id: string;
  display_name: string;
  avatar_url: string | null;
  role: OrgRole;
  created_at: string;
}

/** A membership in any state, as the add path needs it to tell "new" from "revoked". */
export interface MembershipState {
  id: string;
  revokedAt: string | null;
}

const toOrgMember = (row: OrgMemberRecord): OrgMember => ({
  userId: row.user_id,
  imOpenId: row.im_open_id,
  displayName: row.display_name,
  avatarUrl: row.avatar_url,
  role: row.role,
  createdAt: row.created_at,
});

/** By display name as people read it, then by imOpenId, so the order is total. */
const memberOrder = (a: OrgMember, b: OrgMember) => byName(a.displayName, b.displayName) || byCodeUnits(a.imOpenId, b.imOpenId);

/** Organization memberships with the users behind them. */
export class MemberStore {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** The organization's active members, in one query, ordered by display name. */
  async listActive(organizationId: string): Promise<OrgMember[]> {
    const rows = await activeMembers(this.db, organizationId);
    return rows.map(toOrgMember).sort(memberOrder);
  }

  async findActive(organizationId: string, userId: string, trx: Db = this.db): Promise<OrgMember | undefined> {
    const row = await activeMembers(trx, organizationId).where('m.user_id', userId).first();
    return row && toOrgMember(row);
  }

  /**
   * Whether the user is an active member, holding a share lock on the membership row on
   * PostgreSQL until the transaction ends, so a concurrent revocation waits for the caller's
   * dependent write (and then sees it) instead of racing past it.
   */
  async lockActive(trx: Db, organizationId: string, userId: string): Promise<boolean> {
    const row = await trx('memberships')
      .where({ organization_id: organizationId, user_id: userId })
      .whereNull('revoked_at')
      .forShare()
      .first('id');
    return row !== undefined;
  }

  async countActive(trx: Db, organizationId: string): Promise<number> {
    const row = await trx('memberships')
      .where({ organization_id: organizationId })
      .whereNull('revoked_at')
      .count<{ n: number | string }[]>({ n: '*' })
      .first();
    return Number(row?.n ?? 0);
  }

  async findMembership(trx: Db, organizationId: string, userId: string): Promise<MembershipState | undefined> {
    const row = await trx('memberships')
      .where({ organization_id: organizationId, user_id: userId })
      .first<{ id: string; revoked_at: string | null } | undefined>('id', 'revoked_at');
    return row && { id: row.id, revokedAt: row.revoked_at };
  }

  /**
   * The user ids of the organization's active OWNERs, locking their membership rows on
   * PostgreSQL (SQLite's single connection already serializes writers). Every membership
   * change takes this lock first, in id order, so it serializes the changes of one
   * organization: two demotions cannot both see the other OWNER still in place.
   */
  async lockActiveOwnerIds(trx: Db, organizationId: string): Promise<string[]> {
    const rows = await trx('memberships')
      .where({ organization_id: organizationId, role: 'OWNER' })
      .whereNull('revoked_at')
      .orderBy('id')
      .forUpdate()
      .select<{ user_id: string }[]>('user_id');
    return rows.map((r) => r.user_id);
  }

  async insert(trx: Db, input: { organizationId: string; userId: string; role: OrgRole }, at: string): Promise<void> {
    await trx('memberships').insert({
      id: randomUUID(),
      organization_id: input.organizationId,
      user_id: input.userId,
      role: input.role,
      created_at: at,
      revoked_at: null,
    });
  }

  /** A revoked membership starts over: new role, and it counts as created now. */
  async reactivate(trx: Db, membershipId: string, role: OrgRole, at: string): Promise<void> {
    await trx('memberships').where({ id: membershipId }).update({ role, created_at: at, revoked_at: null });
  }

  async setRole(trx: Db, organizationId: string, userId: string, role: OrgRole): Promise<void> {
    await trx('memberships').where({ organization_id: organizationId, user_id: userId }).whereNull('revoked_at').update({ role });
  }

  async revoke(trx: Db, organizationId: string, userId: string, at: string): Promise<void> {
    await trx('memberships').where({ organization_id: organizationId, user_id: userId }).whereNull('revoked_at').update({ revoked_at: at });
  }
}

function activeMembers(db: Db, organizationId: string) {
  return db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.organization_id', organizationId)
    .whereNull('m.revoked_at')
    .select<OrgMemberRecord[]>('u.id as user_id', 'u.im_open_id', 'u.display_name', 'u.avatar_url', 'm.role', 'm.created_at');
}
