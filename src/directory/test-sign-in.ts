import type { Schema } from '../api/types.js';
import { withAuditScope } from '../audit/scope.js';
import { recordChange } from '../audit/trail.js';
import type { Clock } from '../config/clock.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { notFound, unprocessable } from '../errors/api-error.js';
import type { IdentityProviderStore } from '../identity/provider-store.js';
import type { SignInService, TestedSignIn } from '../identity/sign-in.js';
import type { UserStore } from '../users/store.js';
import { decide, groupsOf } from './groups.js';

/** The audit action of a test sign-in's callback, when the claims were read. */
export const TEST_RESULT_ACTION = 'directory.test_result';

/**
 * Settings → Sign-in's "test sign-in": an org admin runs their organization's provider's flow in a
 * popup, and sees what it sent and what the mappings would do, without any membership, identity or
 * session changing. The start (`testOrgIdentityProvider`) and the reading of the claims are each
 * one audit event; the report names no token and no secret (subject, email, name, groups only).
 */
export class TestSignIn {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly providers: IdentityProviderStore,
    private readonly signIn: SignInService,
    private readonly users: UserStore,
    private readonly clock: Clock,
  ) {}

  /** The provider's authorization URL for the admin's popup, and the browser token to keep. */
  async start(
    organizationId: string,
    providerId: string,
    userId: string,
    browserToken: string | undefined,
  ): Promise<{ location: URL; browserToken: string }> {
    const provider = await this.providers.find(this.uow.executor, providerId);
    if (!provider || provider.organizationId !== organizationId) {
      throw notFound('identity_provider_not_found', `This organization has no identity provider "${providerId}".`);
    }
    if (provider.disabledAt !== null) {
      throw unprocessable('identity_provider_check_failed', `${provider.label} is disabled; enable it to test it.`);
    }
    const started = await this.signIn.start(providerId, '/', browserToken, userId, organizationId);
    await this.uow.run((trx) =>
      recordChange(trx, {
        organizationId,
        target: { type: 'identity_provider', id: provider.id, label: provider.label },
        before: null,
        after: { providerId: provider.id, test: 'started' },
      }),
    );
    return started;
  }

  /** What the callback of a test reports to the admin; recorded as read, in the organization's log. */
  async report(userId: string, tested: TestedSignIn): Promise<Schema<'TestSignInReport'>> {
    const { provider, profile } = tested;
    const claim = groupsOf(profile.claims, provider.groupsClaim);
    const decision = decide(provider, claim.groups);
    const held = new Set(claim.groups);
    const report: Schema<'TestSignInReport'> = {
      providerId: provider.id,
      providerLabel: provider.label,
      subject: profile.subject,
      email: profile.email ?? null,
      emailVerified: profile.emailVerified,
      name: profile.displayName ?? null,
      groupsClaim: provider.groupsClaim,
      groups: claim.groups,
      overage: claim.overage,
      refusal: tested.refusal,
      matchedMappings: provider.mappings.filter((mapping) => held.has(mapping.group)),
      role: claim.overage ? null : decision.role,
      teamIds: claim.overage ? [] : [...decision.teams.keys()],
    };
    const admin = await this.users.findById(this.uow.executor, userId);
    const actor = { type: 'user' as const, id: userId, displayName: admin?.displayName ?? userId };
    const scope = { actor, at: this.clock.now(), action: TEST_RESULT_ACTION, requestId: tested.requestId };
    await withAuditScope(scope, () =>
      this.uow.run((trx) =>
        recordChange(trx, {
          organizationId: tested.organizationId,
          target: { type: 'identity_provider', id: provider.id, label: provider.label },
          before: null,
          after: { subject: report.subject, email: report.email, groups: report.groups, role: report.role },
        }),
      ),
    );
    return report;
  }
}
