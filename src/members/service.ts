import type { ApiTokenService } from '../api-tokens/service.js';
import type { ApiTokenRecord } from '../api-tokens/store.js';
import { apiTokenProjection } from '../api-tokens/projection.js';
import type { CapacityService } from '../capacity/service.js';
import type { SessionService } from '../auth/sessions.js';
import type { Clock } from '../config/clock.js';
import { recordChange } from '../audit/trail.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { badRequest, conflict, forbidden, notFound } from '../errors/api-error.js';
import { avatarUrlProblem } from '../users/avatar-url.js';
import type { OrgAccessResolver } from '../orgs/org-access-resolver.js';
import type { OrgRole } from '../orgs/store.js';
import type { TeamStore } from '../teams/store.js';
import type { UserStore } from '../users/store.js';
import { type OrgMember, type OrgMemberRecord, memberProjection } from './projection.js';
import type { MemberStore } from './store.js';
import type { DepartureStore } from './departure.js';
import type { ListedText } from '../shared/listed-text.js';
import type { Schema } from '../api/types.js';
import { type ManagedStateRecord, projectsLeftUnmanaged } from '../projects/managers.js';

/** Who makes a membership change, and in which organization. */
export interface MemberCaller {
  organizationId: string;
  userId: string;
}

export type AddMemberInput = Schema<'AddMemberRequest'>;
export type MemberDeparture = Schema<'MemberDeparture'>;

/** What a membership's end did: what stopped and stays, and the projects left without a manager. */
export interface MemberEnd {
  departure: MemberDeparture;
  unmanaged: ManagedStateRecord[];
}

const ownerRequired = (what: string) => forbidden('owner_required', `Only an OWNER may ${what}.`);
const memberNotFound = (userId: string) =>
  notFound('member_not_found', `No active member with the user id "${userId}".`);
const lastOwner = () => conflict('last_owner', 'The organization must keep at least one active OWNER.');

/**
 * Organization membership. Only an OWNER may grant or remove the OWNER role or revoke an
 * OWNER, and the last active OWNER stays. Both rules are decided on the OWNER rows each change
 * locks first, not on the role read when the request was authorized, so a caller demoted a
 * moment ago cannot use the role they just lost. Every change clears the in-process access
 * cache, so it holds from the next request on, including for sessions already open.
 */
export class MemberService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly members: MemberStore,
    private readonly teams: TeamStore,
    private readonly users: UserStore,
    private readonly orgAccess: OrgAccessResolver,
    private readonly clock: Clock,
    private readonly capacity: CapacityService,
    private readonly leaving: { apiTokens: ApiTokenService; departures: DepartureStore },
    private readonly sessions: SessionService,
  ) {}

  /** The active members, as the text of their list the database wrote. */
  list(organizationId: string): Promise<ListedText<OrgMember>> {
    return this.members.listActive(this.uow.reader, organizationId);
  }

  /** Adds the user (created when the imOpenId is new), or reactivates a revoked membership. */
  async add(caller: MemberCaller, input: AddMemberInput): Promise<OrgMemberRecord> {
    const { organizationId } = caller;
    const avatarProblem = input.avatarUrl === undefined ? undefined : avatarUrlProblem(input.avatarUrl);
    if (avatarProblem)
      throw badRequest(`avatarUrl ${avatarProblem}.`, [{ path: '/body/avatarUrl', message: avatarProblem }]);
    const now = this.clock.now();
    const at = now.toISOString();
    const member = await this.uow.run(async (trx) => {
      // The lock also serializes additions, so two additions of one user cannot race.
      const owners = await this.members.lockActiveOwnerIds(trx, organizationId);
      if (input.role === 'OWNER' && !owners.includes(caller.userId))
        throw ownerRequired('add a member with the OWNER role');
      const user = await this.users.ensure(trx, input, now);
      if (await this.users.isServiceAccount(trx, user.id)) {
        throw badRequest('`imOpenId` names a service account, which is no member.', [
          { path: '/body/imOpenId', message: 'names a service account' },
        ]);
      }
      const existing = await this.members.findMembership(trx, organizationId, user.id);
      if (existing && existing.revokedAt === null) {
        throw conflict('already_member', `The user "${input.imOpenId}" is already a member of this organization.`);
      }
      // A reactivation adds an active member as much as a new membership does.
      await this.capacity.ensureRoom(trx, organizationId, 'memberCount');
      // The name and avatar given here are this organization's for the person (src/users/shown-profile.ts).
      const profile = { displayName: input.displayName, avatarUrl: input.avatarUrl };
      if (existing) await this.members.reactivate(trx, existing.id, input.role, at, profile);
      else await this.members.insert(trx, { organizationId, userId: user.id, role: input.role, profile }, at);
      const added = await this.requireMember(trx, organizationId, user.id);
      await recordMemberChange(trx, organizationId, user.id, null, added);
      return added;
    });
    await this.orgAccess.invalidate();
    return member;
  }

  async changeRole(caller: MemberCaller, userId: string, role: OrgRole): Promise<OrgMemberRecord> {
    const { organizationId } = caller;
    const member = await this.uow.run(async (trx) => {
      const owners = await this.members.lockActiveOwnerIds(trx, organizationId);
      const target = await this.requireMember(trx, organizationId, userId);
      if ((target.role === 'OWNER' || role === 'OWNER') && !owners.includes(caller.userId)) {
        throw ownerRequired('grant or remove the OWNER role');
      }
      if (target.role === 'OWNER' && role !== 'OWNER' && !hasOtherOwner(owners, userId)) throw lastOwner();
      if (target.role === role) return target;
      await this.members.setRole(trx, organizationId, userId, role);
      const changed = await this.requireMember(trx, organizationId, userId);
      await recordMemberChange(trx, organizationId, userId, target, changed);
      return changed;
    });
    await this.orgAccess.invalidate();
    return member;
  }

  /**
   * What leaving would end and leave: the member's live personal tokens stop; the webhooks and
   * budgets they created stay, as the organization's.
   */
  async departure(organizationId: string, userId: string): Promise<MemberDeparture> {
    await this.requireMember(this.uow.executor, organizationId, userId);
    const tokens = await this.leaving.apiTokens.liveTokensOf(organizationId, userId);
    return {
      userId,
      stops: { apiTokens: tokens.map(apiTokenProjection.toApi) },
      stays: await this.stays(organizationId, userId),
    };
  }

  private async stays(organizationId: string, userId: string): Promise<MemberDeparture['stays']> {
    const { apiTokens, departures } = this.leaving;
    const everToken = await apiTokens.list({ organizationId, userId, isOrgAdmin: false });
    return departures.createdBy(this.uow.executor, organizationId, [userId, ...everToken.map((t) => t.id)]);
  }

  /**
   * Revokes the membership and, with it, the user's memberships of the organization's teams and
   * their personal API tokens; answers what stopped and what stays, and the projects nobody can
   * manage any more because the member held their only MANAGE.
   */
  async revoke(caller: MemberCaller, userId: string): Promise<MemberEnd> {
    const { organizationId } = caller;
    const at = this.clock.now().toISOString();
    const stays = await this.stays(organizationId, userId);
    let revokedTokens: ApiTokenRecord[] = [];
    const unmanaged = await this.uow.run(async (trx) => {
      const owners = await this.members.lockActiveOwnerIds(trx, organizationId);
      const target = await this.requireMember(trx, organizationId, userId);
      if (target.role === 'OWNER') {
        if (!owners.includes(caller.userId)) throw ownerRequired('revoke an OWNER');
        if (!hasOtherOwner(owners, userId)) throw lastOwner();
      }
      return projectsLeftUnmanaged(trx, organizationId, async () => {
        await this.members.revoke(trx, organizationId, userId, at);
        await this.teams.revokeUserFromOrganization(trx, organizationId, userId, at);
        await recordMemberChange(trx, organizationId, userId, target, null);
        revokedTokens = await this.leaving.apiTokens.revokeAllOf(trx, organizationId, userId, at);
      });
    });
    await this.orgAccess.invalidate();
    if (revokedTokens.length) await this.leaving.apiTokens.forgetCached();
    return {
      departure: { userId, stops: { apiTokens: revokedTokens.map(apiTokenProjection.toApi) }, stays },
      unmanaged,
    };
  }

  /**
   * The caller ends their own membership, as a revoke by an OWNER would: the last OWNER cannot
   * (409 `last_owner`), so an organization never loses its last owner this way either.
   */
  leave(caller: MemberCaller): Promise<MemberEnd> {
    return this.revoke(caller, caller.userId);
  }

  /**
   * Ends every session of the member, on every device (their API tokens stay); returns how many
   * ended. Signing out an OWNER is an OWNER's act, as revoking one is.
   */
  async signOut(caller: MemberCaller, userId: string): Promise<number> {
    const { organizationId } = caller;
    const ended = await this.uow.run(async (trx) => {
      const owners = await this.members.lockActiveOwnerIds(trx, organizationId);
      const target = await this.requireMember(trx, organizationId, userId);
      if (target.role === 'OWNER' && !owners.includes(caller.userId)) throw ownerRequired('sign out an OWNER');
      const hashes = await this.sessions.endSessionsOf(trx, userId);
      await recordChange(trx, {
        organizationId,
        target: { type: 'member', id: userId, label: target.display_name },
        before: { sessions: hashes.length },
        after: { sessions: 0 },
      });
      return hashes;
    });
    await this.sessions.forget(ended);
    return ended.length;
  }

  private async requireMember(trx: Executor, organizationId: string, userId: string): Promise<OrgMemberRecord> {
    const member = await this.members.findActive(trx, organizationId, userId);
    if (!member) throw memberNotFound(userId);
    return member;
  }
}

const recordMemberChange = (
  trx: Executor,
  organizationId: string,
  userId: string,
  before: OrgMemberRecord | null,
  after: OrgMemberRecord | null,
) =>
  recordChange(trx, {
    organizationId,
    target: { type: 'member', id: userId, label: (after ?? before)?.display_name ?? null },
    before: before && memberProjection.toApi(before),
    after: after && memberProjection.toApi(after),
  });

/**
 * Whether an active OWNER other than the user remains among the rows this transaction holds
 * locked. Asking "is there another" rather than counting stays right even when the locked set
 * predates a concurrent promotion.
 */
const hasOtherOwner = (lockedOwnerIds: string[], userId: string): boolean => lockedOwnerIds.some((id) => id !== userId);
