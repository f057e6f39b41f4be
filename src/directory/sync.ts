import { type AuditActor, withAuditScope } from '../audit/scope.js';
import { recordChange } from '../audit/trail.js';
import type { CapacityService } from '../capacity/service.js';
import type { Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { ApiError } from '../errors/api-error.js';
import { SignInRefused } from '../identity/protocol.js';
import type { IdentityProvider, IdentityProviderStore } from '../identity/provider-store.js';
import type { LinkedSignIn, SignInAttempt, SignInHook } from '../identity/sign-in.js';
import type { Logger } from '../log/logger.js';
import { memberProjection } from '../members/projection.js';
import type { MemberStore, MembershipOrigin } from '../members/store.js';
import type { OrgAccessResolver } from '../orgs/org-access-resolver.js';
import type { TeamStore } from '../teams/store.js';
import { decide, type DirectoryDecision, groupsOf } from './groups.js';

/** The actor of every change a directory makes: the service, applying the mappings an org admin set. */
export const DIRECTORY_ACTOR: AuditActor = { type: 'system', id: null, displayName: 'directory' };

/** The audit actions of a sign-in's directory changes (not operations: no caller asked for them). */
export const DIRECTORY_ACTIONS = {
  join: 'directory.join',
  role: 'directory.role',
  leave: 'directory.leave',
  teamAdd: 'directory.team_add',
  teamRemove: 'directory.team_remove',
  overage: 'directory.overage',
} as const;

/** The origin a provider's rows carry. */
export const originOf = (providerId: string): MembershipOrigin => `idp:${providerId}`;

type Change = {
  action: string;
  target: { type: string; id: string; label: string | null };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

/**
 * The directory of an organization's identity provider deciding memberships (docs/company-sign-in.md).
 * At every sign-in through such a provider, its groups claim is read and the mappings decide the
 * person's role and teams in that organization. Only rows whose origin is this provider change:
 * a membership or team membership an admin, an invitation, the console or automatic membership
 * made is never touched, and an OWNER's role never moves. Each change is one audit event, actor
 * `directory`, naming the provider and the group. When the provider left the groups out (Entra
 * ID's overage) nothing changes, and one event says so.
 */
export class DirectorySync implements SignInHook {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly providers: IdentityProviderStore,
    private readonly members: MemberStore,
    private readonly teams: TeamStore,
    private readonly orgAccess: OrgAccessResolver,
    private readonly capacity: CapacityService,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** `requireGroup`: someone in none of the mapped groups (or whose groups were left out) is refused. */
  async beforeLink({ provider, profile }: SignInAttempt): Promise<void> {
    if (provider.organizationId === null || !provider.requireGroup) return;
    const claim = groupsOf(profile.claims, provider.groupsClaim);
    if (claim.overage) {
      throw new SignInRefused(
        'group_required',
        `${provider.label} sent no groups (the account is in more groups than its token holds), ` +
          'so whether you are in a group this organization admits is unknown. Ask your administrator.',
      );
    }
    if (!decide(provider, claim.groups).matched) {
      throw new SignInRefused(
        'group_required',
        `Your account at ${provider.label} is in none of the groups this organization admits. Ask your administrator.`,
      );
    }
  }

  async afterLink(signIn: LinkedSignIn): Promise<void> {
    const provider = await this.providers.find(this.uow.executor, signIn.providerId);
    if (!provider || provider.organizationId === null) return;
    const claim = groupsOf(signIn.profile.claims, provider.groupsClaim);
    const at = this.clock.now();
    const changes: Change[] = [];
    try {
      await this.uow.run(async (trx) => {
        changes.length = 0;
        if (claim.overage) changes.push(await this.overage(trx, provider, signIn.userId));
        else changes.push(...(await this.apply(trx, provider, signIn.userId, decide(provider, claim.groups))));
        for (const change of changes) {
          const scope = { actor: DIRECTORY_ACTOR, at, action: change.action, requestId: signIn.requestId };
          await withAuditScope(scope, () =>
            recordChange(trx, {
              organizationId: provider.organizationId!,
              target: change.target,
              before: change.before,
              after: change.after,
            }),
          );
        }
      });
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'capacity_exceeded')) throw err;
      this.logger.warn(
        { organizationId: provider.organizationId, userId: signIn.userId, requestId: signIn.requestId },
        'directory membership skipped: the organization is at its memberCount limit',
      );
      return;
    }
    if (changes.some((change) => change.action !== DIRECTORY_ACTIONS.overage)) await this.orgAccess.invalidate();
  }

  /** The membership, then the teams, brought to what the decision gives; the changes made. */
  private async apply(
    trx: Executor,
    provider: IdentityProvider,
    userId: string,
    decision: DirectoryDecision,
  ): Promise<Change[]> {
    const organizationId = provider.organizationId!;
    const origin = originOf(provider.id);
    const via = (group: string | null) => ({ providerId: provider.id, providerLabel: provider.label, group });
    // Taken as every membership change takes it, so this sign-in is ordered among them.
    await this.members.lockActiveOwnerIds(trx, organizationId);
    const changes: Change[] = [];
    const state = await this.members.findMembership(trx, organizationId, userId);
    const before = await this.members.findActive(trx, organizationId, userId);
    const memberTarget = (label: string | null) => ({ type: 'member', id: userId, label });
    const now = this.clock.now().toISOString();
    if (!before && decision.role && (!state || state.origin === origin)) {
      await this.capacity.ensureRoom(trx, organizationId, 'memberCount');
      if (state) await this.members.reactivate(trx, state.id, decision.role, now, undefined, origin);
      else await this.members.insert(trx, { organizationId, userId, role: decision.role, origin }, now);
      const joined = (await this.members.findActive(trx, organizationId, userId))!;
      changes.push({
        action: DIRECTORY_ACTIONS.join,
        target: memberTarget(joined.display_name),
        before: null,
        after: { ...memberProjection.toApi(joined), ...via(decision.roleGroup) },
      });
    } else if (before && state?.origin === origin && before.role !== 'OWNER') {
      if (!decision.role) {
        await this.members.revoke(trx, organizationId, userId, now);
        await this.teams.revokeUserFromOrganization(trx, organizationId, userId, now);
        changes.push({
          action: DIRECTORY_ACTIONS.leave,
          target: memberTarget(before.display_name),
          before: { ...memberProjection.toApi(before), ...via(null) },
          after: null,
        });
        return changes;
      }
      if (decision.role !== before.role) {
        await this.members.setRole(trx, organizationId, userId, decision.role);
        changes.push({
          action: DIRECTORY_ACTIONS.role,
          target: memberTarget(before.display_name),
          before: { role: before.role },
          after: { role: decision.role, ...via(decision.roleGroup) },
        });
      }
    }
    const member = await this.members.findActive(trx, organizationId, userId);
    if (!member) return changes;
    const held = await this.teams.heldBy(trx, organizationId, userId);
    const heldIds = new Set(held.map((team) => team.teamId));
    const teamTarget = (teamId: string, teamName: string) => ({
      type: 'team_member',
      id: `${teamId}:${userId}`,
      label: `${member.display_name} in ${teamName}`,
    });
    for (const [teamId, group] of decision.teams) {
      if (heldIds.has(teamId)) continue;
      const teamName = await this.teams.lockActive(trx, organizationId, teamId);
      // A team archived since the mapping was saved gives nothing.
      if (teamName === null) continue;
      const user = { id: userId, imOpenId: member.im_open_id, displayName: member.display_name };
      if (!(await this.teams.insertMember(trx, teamId, user, now, origin))) continue;
      changes.push({
        action: DIRECTORY_ACTIONS.teamAdd,
        target: teamTarget(teamId, teamName),
        before: null,
        after: { teamId, teamName, userId, ...via(group) },
      });
    }
    for (const team of held) {
      if (team.origin !== origin || decision.teams.has(team.teamId)) continue;
      await this.teams.revokeMember(trx, team.teamId, userId, now);
      changes.push({
        action: DIRECTORY_ACTIONS.teamRemove,
        target: teamTarget(team.teamId, team.teamName),
        before: { teamId: team.teamId, teamName: team.teamName, userId, ...via(null) },
        after: null,
      });
    }
    return changes;
  }

  /** Groups left out: no change at all, recorded as such (fails closed: no role is given or taken). */
  private async overage(trx: Executor, provider: IdentityProvider, userId: string): Promise<Change> {
    const member = await this.members.findActive(trx, provider.organizationId!, userId);
    return {
      action: DIRECTORY_ACTIONS.overage,
      target: { type: 'member', id: userId, label: member?.display_name ?? null },
      before: null,
      after: {
        providerId: provider.id,
        providerLabel: provider.label,
        group: null,
        groupsClaim: provider.groupsClaim,
        overage: true,
        outcome: 'The provider sent no groups (overage); roles and teams were left unchanged.',
      },
    };
  }
}
