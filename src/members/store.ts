import { randomUUID } from 'node:crypto';
import { preparedRowSets } from '../db/json-rows.js';
import type { Executor } from '../db/unit-of-work.js';
import type { OrgRole } from '../orgs/store.js';
import { ListedText } from '../shared/listed-text.js';
import { type MembershipProfile, membershipProfileColumns, shownAvatar, shownName } from '../users/shown-profile.js';
import { type OrgMember, type OrgMemberRecord, memberProjection } from './projection.js';
import type { MembershipOrigin } from './origin.js';

export type { MembershipOrigin };

/** A membership in any state, as the add path needs it to tell "new" from "revoked". */
export interface MembershipState {
  id: string;
  revokedAt: string | null;
  role: OrgRole;
  origin: string;
}

/** Organization memberships with the users behind them. */
export class MemberStore {
  /** The organization's active members, in one statement, as the text of their list (`memberProjection`). */
  async listActive(db: Executor, organizationId: string): Promise<ListedText<OrgMember>> {
    const { members } = await activeMembersText(db, { organizationId });
    return new ListedText(members, memberProjection.order);
  }

  async findActive(db: Executor, organizationId: string, userId: string): Promise<OrgMemberRecord | undefined> {
    return activeMembers(db, organizationId).where('m.user_id', userId).first();
  }

  /**
   * Whether the user is an active member, holding a share lock on the membership row on
   * PostgreSQL until the transaction ends, so a concurrent revocation waits for the caller's
   * dependent write (and then sees it) instead of racing past it.
   */
  async lockActive(trx: Executor, organizationId: string, userId: string): Promise<boolean> {
    const row = await trx('memberships')
      .where({ organization_id: organizationId, user_id: userId })
      .whereNull('revoked_at')
      .forShare()
      .first('id');
    return row !== undefined;
  }

  /** The active memberships of people: the `memberCount` seats (a service account takes none). */
  async countActive(trx: Executor, organizationId: string): Promise<number> {
    const row = await trx('memberships as m')
      .join('users as u', 'u.id', 'm.user_id')
      .where({ 'm.organization_id': organizationId, 'u.kind': 'person' })
      .whereNull('m.revoked_at')
      .count<{ n: number | string }[]>({ n: '*' })
      .first();
    return Number(row?.n ?? 0);
  }

  async findMembership(trx: Executor, organizationId: string, userId: string): Promise<MembershipState | undefined> {
    const row = await trx('memberships')
      .where({ organization_id: organizationId, user_id: userId })
      .first<{ id: string; revoked_at: string | null; role: OrgRole; origin: string } | undefined>(
        'id',
        'revoked_at',
        'role',
        'origin',
      );
    return row && { id: row.id, revokedAt: row.revoked_at, role: row.role, origin: row.origin };
  }

  /**
   * The user ids of the organization's active OWNERs, locking their membership rows on
   * PostgreSQL (SQLite's single connection already serializes writers). Every membership
   * change takes this lock first, in id order, so it serializes the changes of one
   * organization: two demotions cannot both see the other OWNER still in place.
   */
  async lockActiveOwnerIds(trx: Executor, organizationId: string): Promise<string[]> {
    const rows = await trx('memberships')
      .where({ organization_id: organizationId, role: 'OWNER' })
      .whereNull('revoked_at')
      .orderBy('id')
      .forUpdate()
      .select<{ user_id: string }[]>('user_id');
    return rows.map((r) => r.user_id);
  }

  /** A new membership, with the name and avatar the organization gives the person, if any. */
  async insert(
    trx: Executor,
    input: {
      organizationId: string;
      userId: string;
      role: OrgRole;
      profile?: MembershipProfile;
      origin?: MembershipOrigin;
    },
    at: string,
  ): Promise<void> {
    await trx('memberships').insert({
      id: randomUUID(),
      organization_id: input.organizationId,
      user_id: input.userId,
      role: input.role,
      origin: input.origin ?? 'manual',
      ...membershipProfileColumns(input.profile ?? {}),
      created_at: at,
      revoked_at: null,
    });
  }

  /**
   * A revoked membership starts over: new role, and it counts as created now. A `profile` given
   * replaces the organization's name and avatar for the person; without one they stay.
   */
  async reactivate(
    trx: Executor,
    membershipId: string,
    role: OrgRole,
    at: string,
    profile?: MembershipProfile,
    origin: MembershipOrigin = 'manual',
  ): Promise<void> {
    const columns = profile ? membershipProfileColumns(profile) : {};
    await trx('memberships')
      .where({ id: membershipId })
      .update({ role, origin, ...columns, created_at: at, revoked_at: null });
  }

  async setRole(trx: Executor, organizationId: string, userId: string, role: OrgRole): Promise<void> {
    await trx('memberships')
      .where({ organization_id: organizationId, user_id: userId })
      .whereNull('revoked_at')
      .update({ role });
  }

  async revoke(trx: Executor, organizationId: string, userId: string, at: string): Promise<void> {
    await trx('memberships')
      .where({ organization_id: organizationId, user_id: userId })
      .whereNull('revoked_at')
      .update({ revoked_at: at });
  }
}

const activeMembersText = preparedRowSets((db, { organizationId }: { organizationId: string }) => ({
  members: { query: activeMembers(db, organizationId), projection: memberProjection },
}));

const MEMBER_PROFILE = { user: 'u', membership: 'm' };

function activeMembers(db: Executor, organizationId: string) {
  return db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.organization_id', organizationId)
    .whereNull('m.revoked_at')
    .where('u.kind', 'person')
    .select<OrgMemberRecord[]>(
      'u.id as user_id',
      'u.im_open_id',
      shownName(db, MEMBER_PROFILE),
      shownAvatar(db, MEMBER_PROFILE),
      'm.role',
      'm.created_at',
    );
}
