import { recordChange } from '../audit/trail.js';
import { type AuditActor, withAuditScope } from '../audit/scope.js';
import type { CapacityService } from '../capacity/service.js';
import type { Clock } from '../config/clock.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { ApiError } from '../errors/api-error.js';
import type { LinkedSignIn, SignInHook } from '../identity/sign-in.js';
import type { Logger } from '../log/logger.js';
import type { ProviderSettings } from '../identity/provider-store.js';
import { vouchesFor } from '../identity/vouching.js';
import { memberProjection } from '../members/projection.js';
import type { MemberStore } from '../members/store.js';
import type { OrgAccessResolver } from '../orgs/org-access-resolver.js';
import type { OrganizationStore } from '../orgs/store.js';
import { type AutoJoinMatch, matchOf } from './rule.js';

/** The actor of every automatic join: the service, applying a rule an org admin set. */
export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null, displayName: 'automatic membership' };
/** The audit action of an automatic join (not an operation of the API: no caller asked for it). */
export const AUTO_JOIN_ACTION = 'autoJoin';

/**
 * Automatic membership: after a sign-in has linked its identity, each organization whose rule
 * applies and names that provider, and which admits the sign-in (`matchOf` in ./rule.ts), gains
 * the user as a MEMBER. Each organization is joined in its own transaction with its own audit
 * event, so one that is full (`memberCount`) is skipped without undoing another; nothing here
 * fails the sign-in. Someone
 * already a member, or whose membership was revoked, is left as they are: an admin's revocation
 * is not undone by a rule (they need a new invitation).
 */
export class AutoJoinService implements SignInHook {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly orgs: OrganizationStore,
    private readonly members: MemberStore,
    private readonly orgAccess: OrgAccessResolver,
    private readonly capacity: CapacityService,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** The provider's settings: which email domains it vouches for. */
    private readonly providerOf: (
      providerId: string,
    ) => Promise<Pick<ProviderSettings, 'allowedEmailDomains'> | undefined>,
  ) {}

  async afterLink(signIn: LinkedSignIn): Promise<void> {
    const rules = await this.orgs.autoJoinRulesOf(this.uow.executor, signIn.providerId);
    if (rules.length === 0) return;
    const provider = await this.providerOf(signIn.providerId);
    const { email, emailVerified } = signIn.profile;
    const vouched = provider !== undefined && vouchesFor(provider, email, emailVerified);
    let joined = 0;
    for (const { organizationId, rule } of rules) {
      const match = matchOf(rule, signIn.profile, vouched);
      if (match && (await this.join(organizationId, signIn, match))) joined += 1;
    }
    if (joined) await this.orgAccess.invalidate();
  }

  /** Joins one organization; false when the user is or was a member, or it is full. */
  private async join(organizationId: string, signIn: LinkedSignIn, match: AutoJoinMatch): Promise<boolean> {
    const at = this.clock.now();
    const scope = { actor: SYSTEM_ACTOR, at, action: AUTO_JOIN_ACTION, requestId: signIn.requestId };
    try {
      return await withAuditScope(scope, () =>
        this.uow.run(async (trx) => {
          // Taken as every membership change takes it, so this join is ordered among them.
          await this.members.lockActiveOwnerIds(trx, organizationId);
          if (await this.members.findMembership(trx, organizationId, signIn.userId)) return false;
          await this.capacity.ensureRoom(trx, organizationId, 'memberCount');
          const now = at.toISOString();
          await this.members.insert(
            trx,
            { organizationId, userId: signIn.userId, role: 'MEMBER', origin: 'autoJoin' },
            now,
          );
          const member = (await this.members.findActive(trx, organizationId, signIn.userId))!;
          await recordChange(trx, {
            organizationId,
            target: { type: 'member', id: signIn.userId, label: member.display_name },
            before: null,
            after: { ...memberProjection.toApi(member), providerId: signIn.providerId, matched: match },
          });
          return true;
        }),
      );
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'capacity_exceeded')) throw err;
      this.logger.warn(
        { organizationId, userId: signIn.userId, requestId: signIn.requestId },
        'automatic membership skipped: the organization is at its memberCount limit',
      );
      return false;
    }
  }
}
