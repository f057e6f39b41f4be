import { type AuditActor, withAuditScope } from '../audit/scope.js';
import { recordChange } from '../audit/trail.js';
import type { Clock } from '../config/clock.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { emailDomainOf } from '../domains/domain-name.js';
import type { DomainStore } from '../domains/store.js';
import type { IdentityProviderStore } from '../identity/provider-store.js';
import type { LinkedSignIn, SignInHook } from '../identity/sign-in.js';
import { vouchesFor } from '../identity/vouching.js';
import { memberProjection } from '../members/projection.js';
import type { MemberStore } from '../members/store.js';
import type { OrgAccessResolver } from './org-access-resolver.js';
import type { PendingOwner, PendingOwnerStore } from './pending-owner-store.js';

/** The actor of an owner's claim: the service, doing what the operator set up at `hub org create`. */
export const OWNER_CLAIM_ACTOR: AuditActor = { type: 'system', id: null, displayName: 'sign-in' };
/** The audit action of a pending owner's first sign-in (not an operation: no caller asked for it). */
export const OWNER_CLAIM_ACTION = 'organization.owner_claim';

/**
 * Why a pending owner's sign-in did not (yet) make them OWNER, or undefined when it may: the
 * provider must vouch for the address (verified, of a domain in its `emailDomains`), and the
 * address's domain must be verified for the organization, so nobody else who can get an account
 * with that address at some provider takes the organization.
 */
export async function ownerClaimProblem(
  deps: { providers: IdentityProviderStore; domains: DomainStore },
  db: Parameters<DomainStore['verifiedRow']>[0],
  pending: Pick<PendingOwner, 'organizationId' | 'email' | 'providerId'>,
  profile: { email?: string | undefined; emailVerified: boolean },
): Promise<string | undefined> {
  const provider = await deps.providers.find(db, pending.providerId);
  if (!provider) return `the identity provider "${pending.providerId}" is not configured`;
  if (!vouchesFor(provider, profile.email, profile.emailVerified)) {
    const domains = provider.allowedEmailDomains.join(', ') || 'none';
    return `${provider.label} does not vouch for ${pending.email} (its email domains are ${domains})`;
  }
  const domain = emailDomainOf(pending.email)!;
  const verified = await deps.domains.verifiedRow(db, domain);
  if (verified?.organization_id !== pending.organizationId) return `${domain} is not verified for the organization`;
  return undefined;
}

/**
 * The owner an organization waits for (`hub org create --owner-email E --provider P`): after a
 * sign-in through P whose verified address is E has linked its identity, the person becomes the
 * organization's OWNER, once, in one transaction with one audit event. A sign-in that does not
 * meet `ownerClaimProblem` leaves the organization waiting.
 */
export class PendingOwnerClaim implements SignInHook {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly pending: PendingOwnerStore,
    private readonly providers: IdentityProviderStore,
    private readonly domains: DomainStore,
    private readonly members: MemberStore,
    private readonly orgAccess: OrgAccessResolver,
    private readonly clock: Clock,
  ) {}

  async afterLink(signIn: LinkedSignIn): Promise<void> {
    const { email, emailVerified } = signIn.profile;
    if (!emailVerified || !email) return;
    const waiting = await this.pending.waitingFor(this.uow.executor, signIn.providerId, email);
    let claimed = 0;
    for (const pending of waiting) if (await this.claim(pending, signIn)) claimed += 1;
    if (claimed) await this.orgAccess.invalidate();
  }

  private async claim(pending: PendingOwner, signIn: LinkedSignIn): Promise<boolean> {
    const at = this.clock.now();
    const scope = { actor: OWNER_CLAIM_ACTOR, at, action: OWNER_CLAIM_ACTION, requestId: signIn.requestId };
    return withAuditScope(scope, () =>
      this.uow.run(async (trx) => {
        const deps = { providers: this.providers, domains: this.domains };
        if (await ownerClaimProblem(deps, trx, pending, signIn.profile)) return false;
        if (!(await this.pending.take(trx, pending.organizationId))) return false;
        const { organizationId } = pending;
        const { userId } = signIn;
        await this.members.lockActiveOwnerIds(trx, organizationId);
        const state = await this.members.findMembership(trx, organizationId, userId);
        const before = await this.members.findActive(trx, organizationId, userId);
        const now = at.toISOString();
        if (before) await this.members.setRole(trx, organizationId, userId, 'OWNER');
        else if (state) await this.members.reactivate(trx, state.id, 'OWNER', now, undefined, 'console');
        else await this.members.insert(trx, { organizationId, userId, role: 'OWNER', origin: 'console' }, now);
        const member = (await this.members.findActive(trx, organizationId, userId))!;
        await recordChange(trx, {
          organizationId,
          target: { type: 'member', id: userId, label: member.display_name },
          before: before ? memberProjection.toApi(before) : null,
          after: { ...memberProjection.toApi(member), email: pending.email, providerId: pending.providerId },
        });
        return true;
      }),
    );
  }
}
