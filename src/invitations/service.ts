import { randomUUID } from 'node:crypto';
import { deletingConflict } from '../orgs/lifecycle.js';
import { recordChange } from '../audit/trail.js';
import { invitationLabel } from '../audit/labels.js';
import { hashToken, newToken } from '../auth/tokens.js';
import type { CapacityService } from '../capacity/service.js';
import { DAY_MS, type Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { badRequestAt, conflict, forbidden, gone, notFound } from '../errors/api-error.js';
import { emailDomainOf } from '../domains/domain-name.js';
import { type SsoRequirement, ssoRequiredError } from '../directory/enforcement.js';
import { requireVerifiedDomains, type VerifiedDomains } from '../domains/service.js';
import type { Schema } from '../api/types.js';
import { memberProjection } from '../members/projection.js';
import type { OrgMemberRecord } from '../members/projection.js';
import type { MemberStore } from '../members/store.js';
import type { OrgAccessResolver } from '../orgs/org-access-resolver.js';
import type { OrgRole } from '../orgs/store.js';
import { decodeCursor, type Page, type PageRequest, pageOfRows } from '../shared/pagination.js';
import type { TeamStore } from '../teams/store.js';
import type { UserStore } from '../users/store.js';
import { type InvitationAt, type InvitationRecord, invitationAt, invitationProjection } from './projection.js';
import { statusAt } from './status.js';
import { hasVerifiedEmail, type InvitationStore, type LinkedInvitationRecord } from './store.js';

/** The most invitations an organization may have pending (unexpired) at once. */
export const MAX_PENDING_INVITATIONS = 1_000;

/** How long an invitation stands when the request names no expiry. */
export const DEFAULT_INVITATION_DAYS = 7;

/** Who invites: an org admin (`userId`), or the host console (`userId` null), in one organization. */
export interface InvitationCaller {
  organizationId: string;
  userId: string | null;
  /** An OWNER (or the console) may invite with the OWNER role; an ADMIN may not. */
  isOwner: boolean;
}

export interface NewInvitationInput {
  role: OrgRole;
  teamIds?: string[] | undefined;
  email?: string | undefined;
  expiresInDays?: number | undefined;
}

/** What accepting an invitation gave: the membership, the teams joined and those skipped as archived. */
export interface AcceptedInvitation {
  invitation: LinkedInvitationRecord;
  member: OrgMemberRecord;
  teamIds: string[];
  skippedTeamIds: string[];
}

const ownerRequired = (what: string) => forbidden('owner_required', `Only an OWNER may ${what}.`);
const invitationNotFound = () =>
  notFound('invitation_not_found', 'No invitation has this link; ask whoever invited you for a new one.');

/**
 * Invitations by link (docs/decisions.md). The link's token is made here and handed out once; the
 * database keeps only its SHA-256. Accepting takes the invitation's row lock first and decides
 * everything in that one transaction — membership, teams, the invitation's status and the audit
 * event — so of two accepts of one link exactly one joins, and a refusal changes nothing.
 */
export class InvitationService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly invitations: InvitationStore,
    private readonly members: MemberStore,
    private readonly teams: TeamStore,
    private readonly users: UserStore,
    private readonly orgAccess: OrgAccessResolver,
    private readonly capacity: CapacityService,
    private readonly clock: Clock,
    /** The organization's verified domains among some: an invitation may be bound only to an address at one. */
    private readonly verifiedDomains: VerifiedDomains,
    /** The sign-in a verified domain requires that the user has not used (src/directory/enforcement.ts). */
    private readonly unmetSso?: (
      db: Executor,
      userId: string,
      email: string | null,
    ) => Promise<SsoRequirement | undefined>,
  ) {}

  /** Creates an invitation; the token is returned this once, to be shown as the link. */
  async create(
    caller: InvitationCaller,
    input: NewInvitationInput,
  ): Promise<{ invitation: InvitationRecord; token: string }> {
    const { organizationId } = caller;
    if (input.role === 'OWNER' && !caller.isOwner) throw ownerRequired('invite with the OWNER role');
    const teamIds = [...new Set(input.teamIds ?? [])];
    const token = newToken();
    const id = randomUUID();
    const now = this.clock.now();
    const days = input.expiresInDays ?? DEFAULT_INVITATION_DAYS;
    const email = input.email?.toLowerCase() ?? null;
    const invitation = await this.uow.run(async (trx) => {
      if (email !== null) {
        const domain = emailDomainOf(email);
        if (domain === undefined)
          throw badRequestAt({ path: '/body/email', message: `"${email}" has no valid domain` });
        await requireVerifiedDomains(this.verifiedDomains, trx, organizationId, [domain], 'inviting an address there');
      }
      if ((await this.invitations.countPending(trx, organizationId, now.toISOString())) >= MAX_PENDING_INVITATIONS) {
        throw conflict(
          'capacity_exceeded',
          `An organization has at most ${MAX_PENDING_INVITATIONS} pending invitations; revoke some or let them expire.`,
        );
      }
      for (const teamId of teamIds) {
        if (!(await this.teams.findActive(trx, organizationId, teamId)))
          throw notFound('team_not_found', `No active team with the id "${teamId}".`);
      }
      await this.invitations.insert(trx, {
        id,
        organizationId,
        tokenHash: hashToken(token),
        role: input.role,
        teamIds,
        email,
        createdBy: caller.userId,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + days * DAY_MS).toISOString(),
      });
      const created = await this.requireInvitation(trx, organizationId, id);
      await this.record(trx, created, null, created);
      return created;
    });
    return { invitation, token };
  }

  /** The id of the organization's active team with this slug (the console names teams by slug). */
  async activeTeamId(organizationId: string, slug: string): Promise<string | undefined> {
    return (await this.teams.findActiveBySlug(this.uow.executor, organizationId, slug))?.id;
  }

  /**
   * One page of the organization's invitations in the projection's order, read and cut by the
   * database, each as read now (whether a pending one shows as expired).
   */
  async list(
    organizationId: string,
    request: PageRequest & { status?: Schema<'InvitationStatus'> | undefined },
  ): Promise<Page<InvitationAt>> {
    const after = request.cursor === undefined ? undefined : decodeCursor(request.cursor, 2);
    const now = this.clock.now().toISOString();
    const found = await this.invitations.listPage(this.uow.executor, organizationId, {
      now,
      status: request.status,
      after,
      ...(request.limit === undefined ? {} : { limit: request.limit + 1 }),
    });
    const rows = found.map((row) => ({ ...row, now }));
    if (request.limit === undefined) return { items: rows, nextCursor: null };
    return pageOfRows(rows, request.limit, invitationProjection.keyOfRow);
  }

  /** Revokes a pending invitation; one already revoked is returned as it is. */
  async revoke(caller: InvitationCaller, invitationId: string): Promise<InvitationRecord> {
    const { organizationId } = caller;
    return this.uow.run(async (trx) => {
      const found = await this.requireInvitation(trx, organizationId, invitationId);
      if (found.role === 'OWNER' && !caller.isOwner) throw ownerRequired('revoke an invitation with the OWNER role');
      const status = await this.invitations.lock(trx, invitationId);
      if (status === 'revoked') return found;
      const now = this.clock.now().toISOString();
      if (statusAt({ status: status!, expires_at: found.expires_at }, now) !== 'pending') {
        throw conflict(
          'invitation_not_pending',
          'Only a pending invitation can be revoked; this one was used or expired.',
        );
      }
      await this.invitations.markRevoked(trx, invitationId, now);
      const revoked = await this.requireInvitation(trx, organizationId, invitationId);
      await this.record(trx, revoked, found, revoked);
      return revoked;
    });
  }

  /** The invitation a link names, for the invitee to look at before accepting. */
  async preview(token: string): Promise<LinkedInvitationRecord> {
    const found = await this.invitations.findByTokenHash(this.uow.executor, hashToken(token));
    if (!found) throw invitationNotFound();
    return found;
  }

  /** The active teams among those the invitation gives, by name: what accepting it joins. */
  async teamsGiven(invitation: Pick<InvitationRecord, 'organization_id' | 'team_ids'>) {
    const ids = new Set(JSON.parse(invitation.team_ids) as string[]);
    if (ids.size === 0) return [];
    const teams = await this.teams.namesOf(this.uow.executor, invitation.organization_id);
    return teams.filter((team) => ids.has(team.id)).map(({ id, slug, name }) => ({ id, slug, name }));
  }

  /** The pending, unexpired invitations addressed to an email the user carries verified. */
  listAddressedTo(userId: string): Promise<LinkedInvitationRecord[]> {
    return this.invitations.listAddressedTo(this.uow.executor, userId, this.clock.now().toISOString());
  }

  /**
   * Makes the user a member as the invitation says, or refuses with nothing changed. The invitation
   * is named by its link's token, or by its id when it is addressed to an email the user carries
   * verified (the one they were shown by listAddressedTo); by id, any other is not found.
   */
  async accept(userId: string, invitation: { token: string } | { id: string }): Promise<AcceptedInvitation> {
    const accepted = await this.uow.run(async (trx) => {
      const found = await this.findToAccept(trx, userId, invitation);
      const organizationId = found.organization_id;
      // Decided on the status read under the row's lock: a concurrent accept or revoke has ended.
      const status = await this.invitations.lock(trx, found.id);
      const now = this.clock.now().toISOString();
      refuseUnusable(statusAt({ status: status!, expires_at: found.expires_at }, now));
      // An organization being deleted is read-only, a join included (docs/organization-lifecycle.md).
      if (found.organization_status === 'DELETING') throw deletingConflict({ purge_at: found.organization_purge_at });
      if (found.email !== null && !(await hasVerifiedEmail(trx, userId, found.email))) {
        throw forbidden(
          'invitation_email_mismatch',
          `This invitation is for ${found.email}; sign in with an account that has this email address verified.`,
        );
      }
      const unmet = await this.unmetSso?.(trx, userId, found.email);
      if (unmet) {
        throw ssoRequiredError(unmet, 'Sign in with it first, then open this invitation again.');
      }
      // Taken as every membership change takes it, so this join is ordered among them.
      await this.members.lockActiveOwnerIds(trx, organizationId);
      const existing = await this.members.findMembership(trx, organizationId, userId);
      if (existing && existing.revokedAt === null)
        throw conflict('already_member', 'You are already a member of this organization.');
      await this.capacity.ensureRoom(trx, organizationId, 'memberCount');
      if (existing) await this.members.reactivate(trx, existing.id, found.role, now, undefined, 'invitation');
      else await this.members.insert(trx, { organizationId, userId, role: found.role, origin: 'invitation' }, now);
      const { teamIds, skippedTeamIds } = await this.joinTeams(trx, found, userId, now);
      await this.invitations.markAccepted(trx, found.id, userId, now);
      const member = (await this.members.findActive(trx, organizationId, userId))!;
      const after = await this.requireInvitation(trx, organizationId, found.id);
      await recordChange(trx, {
        organizationId,
        target: { type: 'invitation', id: found.id, label: invitationLabel(found) },
        before: invitationAt(found, now),
        after: {
          ...invitationAt(after, now),
          member: memberProjection.toApi(member),
          joinedTeamIds: teamIds,
          skippedTeamIds,
        },
      });
      return { invitation: found, member, teamIds, skippedTeamIds };
    });
    await this.orgAccess.invalidate();
    return accepted;
  }

  private async findToAccept(
    trx: Executor,
    userId: string,
    invitation: { token: string } | { id: string },
  ): Promise<LinkedInvitationRecord> {
    if ('token' in invitation) {
      const found = await this.invitations.findByTokenHash(trx, hashToken(invitation.token));
      if (!found) throw invitationNotFound();
      return found;
    }
    const found = await this.invitations.findLinkedById(trx, invitation.id);
    if (!found || found.email === null || !(await hasVerifiedEmail(trx, userId, found.email))) {
      throw notFound('invitation_not_found', `No invitation addressed to you has the id "${invitation.id}".`);
    }
    return found;
  }

  /** Adds the user to each invited team still active; an archived one is skipped and reported. */
  private async joinTeams(
    trx: Executor,
    invitation: InvitationRecord,
    userId: string,
    at: string,
  ): Promise<{ teamIds: string[]; skippedTeamIds: string[] }> {
    const teamIds: string[] = [];
    const skippedTeamIds: string[] = [];
    const user = (await this.users.findById(trx, userId))!;
    for (const teamId of JSON.parse(invitation.team_ids) as string[]) {
      if (await this.teams.lockActive(trx, invitation.organization_id, teamId)) {
        await this.teams.insertMember(trx, teamId, user, at, 'invitation');
        teamIds.push(teamId);
      } else skippedTeamIds.push(teamId);
    }
    return { teamIds, skippedTeamIds };
  }

  private async requireInvitation(trx: Executor, organizationId: string, id: string): Promise<InvitationRecord> {
    const found = await this.invitations.find(trx, organizationId, id);
    if (!found) throw notFound('invitation_not_found', `No invitation with the id "${id}".`);
    return found;
  }

  private record(trx: Executor, target: InvitationRecord, before: InvitationRecord | null, after: InvitationRecord) {
    const now = this.clock.now().toISOString();
    return recordChange(trx, {
      organizationId: target.organization_id,
      target: { type: 'invitation', id: target.id, label: invitationLabel(target) },
      before: before && invitationAt(before, now),
      after: invitationAt(after, now),
    });
  }
}

/** Refuses a link that no longer admits anyone, saying why. */
function refuseUnusable(status: Schema<'InvitationStatus'>): void {
  if (status === 'revoked') throw gone('invitation_revoked', 'This invitation was revoked; ask for a new one.');
  if (status === 'expired') throw gone('invitation_expired', 'This invitation has expired; ask for a new one.');
  if (status === 'accepted')
    throw conflict('invitation_used', 'This invitation was already accepted; a link is single use.');
}
