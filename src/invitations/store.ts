import type { Executor } from '../db/unit-of-work.js';
import { shownName } from '../users/shown-profile.js';
import type { OrgRole } from '../orgs/store.js';

/** What is decided about an invitation; `expired` is derived from `expires_at` when read. */
export type StoredInvitationStatus = 'pending' | 'accepted' | 'revoked';

/** An invitation row joined to the names of who made and who accepted it. */
export interface InvitationRecord {
  id: string;
  organization_id: string;
  role: OrgRole;
  team_ids: string;
  email: string | null;
  status: StoredInvitationStatus;
  created_by: string | null;
  created_by_name: string | null;
  created_at: string;
  expires_at: string;
  accepted_by: string | null;
  accepted_by_name: string | null;
  accepted_at: string | null;
}

/** An invitation found by its link, with the organization it invites to. */
export interface LinkedInvitationRecord extends InvitationRecord {
  organization_slug: string;
  organization_name: string;
}

export interface NewInvitation {
  id: string;
  organizationId: string;
  tokenHash: string;
  role: OrgRole;
  teamIds: string[];
  email: string | null;
  createdBy: string | null;
  createdAt: string;
  expiresAt: string;
}

/** Invitations of organizations, found by id within one or by the hash of their link's token. */
export class InvitationStore {
  async insert(trx: Executor, invitation: NewInvitation): Promise<void> {
    await trx('invitations').insert({
      id: invitation.id,
      organization_id: invitation.organizationId,
      token_hash: invitation.tokenHash,
      role: invitation.role,
      team_ids: JSON.stringify(invitation.teamIds),
      email: invitation.email,
      status: 'pending',
      created_by: invitation.createdBy,
      created_at: invitation.createdAt,
      expires_at: invitation.expiresAt,
      accepted_by: null,
      accepted_at: null,
      revoked_at: null,
    });
  }

  /** The organization's invitations of every status (the list's order is the caller's). */
  async listOf(db: Executor, organizationId: string): Promise<InvitationRecord[]> {
    return invitations(db).where('i.organization_id', organizationId);
  }

  async find(db: Executor, organizationId: string, invitationId: string): Promise<InvitationRecord | undefined> {
    return invitations(db).where({ 'i.organization_id': organizationId, 'i.id': invitationId }).first();
  }

  /** The invitation a link names, with the organization it invites to. */
  async findByTokenHash(db: Executor, tokenHash: string): Promise<LinkedInvitationRecord | undefined> {
    return linkedInvitations(db)
      .where('i.token_hash', tokenHash)
      .first<LinkedInvitationRecord | undefined>(...ORGANIZATION_COLUMNS);
  }

  async findLinkedById(db: Executor, invitationId: string): Promise<LinkedInvitationRecord | undefined> {
    return linkedInvitations(db)
      .where('i.id', invitationId)
      .first<LinkedInvitationRecord | undefined>(...ORGANIZATION_COLUMNS);
  }

  /**
   * The pending invitations, unexpired at `now`, for an email address one of the user's identities
   * carries verified, newest first (invitation emails are stored lower-cased).
   */
  async listAddressedTo(db: Executor, userId: string, now: string): Promise<LinkedInvitationRecord[]> {
    const verifiedEmails = db('user_identities')
      .where({ user_id: userId, email_verified: true })
      .whereNotNull('email')
      .select(db.raw('lower(email)'));
    return linkedInvitations(db)
      .where('i.status', 'pending')
      .where('i.expires_at', '>', now)
      .whereIn('i.email', verifiedEmails)
      .orderBy([
        { column: 'i.created_at', order: 'desc' },
        { column: 'i.id', order: 'desc' },
      ])
      .select<LinkedInvitationRecord[]>(...ORGANIZATION_COLUMNS);
  }

  /**
   * The invitation's row locked until the transaction ends (PostgreSQL; SQLite's one writer
   * already serializes), so of two accepts or an accept and a revoke one waits for the other.
   */
  async lock(trx: Executor, invitationId: string): Promise<StoredInvitationStatus | undefined> {
    const row = await trx('invitations').where({ id: invitationId }).forUpdate().first<{ status: string }>('status');
    return row?.status as StoredInvitationStatus | undefined;
  }

  async markAccepted(trx: Executor, invitationId: string, userId: string, at: string): Promise<void> {
    await trx('invitations')
      .where({ id: invitationId })
      .update({ status: 'accepted', accepted_by: userId, accepted_at: at });
  }

  async markRevoked(trx: Executor, invitationId: string, at: string): Promise<void> {
    await trx('invitations').where({ id: invitationId }).update({ status: 'revoked', revoked_at: at });
  }
}

/** Invitations with their inviter's and invitee's names as the inviting organization shows them. */
function invitations(db: Executor) {
  return db('invitations as i')
    .leftJoin('users as c', 'c.id', 'i.created_by')
    .leftJoin('memberships as cm', (on) => on.on('cm.user_id', 'c.id').andOn('cm.organization_id', 'i.organization_id'))
    .leftJoin('users as a', 'a.id', 'i.accepted_by')
    .leftJoin('memberships as am', (on) => on.on('am.user_id', 'a.id').andOn('am.organization_id', 'i.organization_id'))
    .select<InvitationRecord[]>(
      'i.id',
      'i.organization_id',
      'i.role',
      'i.team_ids',
      'i.email',
      'i.status',
      'i.created_by',
      shownName(db, { user: 'c', membership: 'cm' }, 'created_by_name'),
      'i.created_at',
      'i.expires_at',
      'i.accepted_by',
      shownName(db, { user: 'a', membership: 'am' }, 'accepted_by_name'),
      'i.accepted_at',
    );
}

const ORGANIZATION_COLUMNS = ['o.slug as organization_slug', 'o.name as organization_name'];

/** Invitations joined to the organization each invites to (its columns: ORGANIZATION_COLUMNS). */
function linkedInvitations(db: Executor) {
  return invitations(db).join('organizations as o', 'o.id', 'i.organization_id');
}

/** Whether one of the user's sign-in identities carries the email address, verified by its provider. */
export async function hasVerifiedEmail(db: Executor, userId: string, email: string): Promise<boolean> {
  const row = await db('user_identities')
    .where({ user_id: userId, email_verified: true })
    .whereRaw('lower(email) = ?', [email.toLowerCase()])
    .first('user_id');
  return row !== undefined;
}
