import type { Executor } from '../db/unit-of-work.js';
import type { CursorKey } from '../shared/pagination.js';
import { shownName } from '../users/shown-profile.js';
import type { OrgRole } from '../orgs/store.js';
import { vouchesFor } from '../identity/vouching.js';
import { type InvitationRecord, invitationProjection } from './projection.js';
import { type InvitationStatus, type StoredInvitationStatus, whereStatusAt } from './status.js';

/** An invitation found by its link, with the organization it invites to. */
export interface LinkedInvitationRecord extends InvitationRecord {
  organization_slug: string;
  organization_name: string;
  /** The organization's own status and purge time: one being deleted admits nobody. */
  organization_status: string;
  organization_purge_at: string | null;
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

  /**
   * The organization's invitations newest first (`created_at`, then `id`, both descending), after
   * the cursor's key, in the status the API shows at `now` (`expired`: pending past its expiry),
   * at most `limit` (all when absent). Filtered, ordered and cut in SQL: an index range on
   * (organization_id, created_at, id).
   */
  async listPage(
    db: Executor,
    organizationId: string,
    page: { now: string; status?: InvitationStatus | undefined; after?: CursorKey | undefined; limit?: number },
  ): Promise<InvitationRecord[]> {
    const query = invitations(db).where('i.organization_id', organizationId);
    if (page.status !== undefined) whereStatusAt(query, page.status, page.now);
    if (page.after) {
      const [createdAt, id] = page.after as [string, string];
      query.where((q) =>
        q
          .where('i.created_at', '<', createdAt)
          .orWhere((q2) => q2.where('i.created_at', createdAt).where('i.id', '<', id)),
      );
    }
    query.orderBy(LIST_ORDER);
    if (page.limit !== undefined) query.limit(page.limit);
    return query;
  }

  /** The organization's invitations pending and unexpired at `now` (an index range). */
  async countPending(db: Executor, organizationId: string, now: string): Promise<number> {
    const row = await whereStatusAt(db('invitations as i').where('i.organization_id', organizationId), 'pending', now)
      .count<{ n: number | string }[]>({ n: '*' })
      .first();
    return Number(row?.n ?? 0);
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
   * carries as its provider vouches for it, newest first (invitation emails are stored lower-cased).
   */
  async listAddressedTo(db: Executor, userId: string, now: string): Promise<LinkedInvitationRecord[]> {
    const verifiedEmails = await vouchedEmails(db, userId);
    if (verifiedEmails.length === 0) return [];
    return linkedInvitations(db)
      .where('i.status', 'pending')
      .where('i.expires_at', '>', now)
      .whereIn('i.email', verifiedEmails)
      .orderBy(LIST_ORDER)
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

/** The projection's order over the invitations table (aliased `i`, as the joined tables share its column names). */
const LIST_ORDER = invitationProjection.sqlOrder.map(({ column, order }) => ({ column: `i.${column}`, order }));

const ORGANIZATION_COLUMNS = [
  'o.slug as organization_slug',
  'o.name as organization_name',
  'o.status as organization_status',
  'o.purge_at as organization_purge_at',
];

/** Invitations joined to the organization each invites to (its columns: ORGANIZATION_COLUMNS). */
function linkedInvitations(db: Executor) {
  return invitations(db).join('organizations as o', 'o.id', 'i.organization_id');
}

/**
 * The email addresses, lower-cased, that the user's sign-in identities carry and their providers
 * vouch for (src/identity/vouching.ts): verified, at one of the provider's `--email-domains`. A
 * user has a few identities, so the rule is applied here rather than in SQL over the JSON list.
 */
async function vouchedEmails(db: Executor, userId: string): Promise<string[]> {
  const rows = await db('user_identities as ui')
    .join('identity_providers as p', 'p.id', 'ui.provider_id')
    .where({ 'ui.user_id': userId, 'ui.email_verified': true })
    .whereNotNull('ui.email')
    .select<{ email: string; allowed_email_domains: string }[]>('ui.email', 'p.allowed_email_domains');
  const vouched = rows.filter((row) =>
    vouchesFor({ allowedEmailDomains: JSON.parse(row.allowed_email_domains) as string[] }, row.email, true),
  );
  return [...new Set(vouched.map((row) => row.email.toLowerCase()))];
}

/** Whether one of the user's sign-in identities carries the email address, vouched for by its provider. */
export async function hasVerifiedEmail(db: Executor, userId: string, email: string): Promise<boolean> {
  return (await vouchedEmails(db, userId)).includes(email.toLowerCase());
}
