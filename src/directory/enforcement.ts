import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { ApiError } from '../errors/api-error.js';
import { emailDomainOf } from '../domains/domain-name.js';
import type { DomainStore, EnforcedDomain } from '../domains/store.js';
import type { UserIdentityStore } from '../identity/identity-store.js';
import { SignInRefused } from '../identity/protocol.js';
import type { IdentityProviderStore } from '../identity/provider-store.js';
import type { SignInAttempt, SignInHook } from '../identity/sign-in.js';

/** A domain's requirement that applies to someone: where they must sign in instead. */
export interface SsoRequirement {
  domain: string;
  providerId: string;
  providerLabel: string;
}

/** The refusal's words, one place for the sign-in page, login links and invitations. */
export const ssoRequiredMessage = ({ domain, providerLabel }: SsoRequirement) =>
  `People with an address at ${domain} sign in with ${providerLabel}.`;

/**
 * 403 `sso_required`: the refusal of a login link or an invitation, its message ending in `tail`,
 * with the requirement as `requiredSignIn` so the web can offer that provider's button.
 */
export const ssoRequiredError = (requirement: SsoRequirement, tail: string) =>
  new ApiError(403, 'sso_required', `${ssoRequiredMessage(requirement)} ${tail}`, undefined, undefined, {
    requiredSignIn: {
      domain: requirement.domain,
      providerId: requirement.providerId,
      providerLabel: requirement.providerLabel,
    },
  });

/**
 * The sign-in a company requires (`enforceSso` of a verified domain): someone with an address at
 * such a domain signs in only through the domain's provider. "An address" is any the sign-in's
 * provider gives and any verified address of the user's other identities, so a second provider
 * connected to the same person does not open a way around it. Login links and invitations ask
 * `requirementFor` with the user alone.
 */
export class SsoEnforcement implements SignInHook {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly domains: DomainStore,
    private readonly identities: UserIdentityStore,
    private readonly providers: IdentityProviderStore,
  ) {}

  async beforeLink({ provider, profile, userId }: SignInAttempt): Promise<void> {
    const db = this.uow.executor;
    const emails = [profile.email, ...(userId ? await this.identities.emailsOf(db, userId) : [])];
    const requirement = await this.requirementAmong(db, emails, provider.id);
    if (requirement) {
      throw new SignInRefused('sso_required', ssoRequiredMessage(requirement), false, requirement.domain);
    }
  }

  async afterLink(): Promise<void> {}

  /**
   * The requirement that keeps the user from signing in any other way than through its provider,
   * unless `through` is that provider; undefined when none applies.
   */
  async requirementFor(db: Executor, userId: string, through?: string): Promise<SsoRequirement | undefined> {
    return this.requirementAmong(db, await this.identities.emailsOf(db, userId), through);
  }

  /**
   * For an invitation: the requirement of a domain among the user's addresses (and `email`, the
   * invitation's) that the user has not met, having no identity at its provider.
   */
  async unmetFor(db: Executor, userId: string, email: string | null): Promise<SsoRequirement | undefined> {
    const emails = [email, ...(await this.identities.emailsOf(db, userId))];
    const domains = [...new Set(emails.flatMap((e) => (e ? [emailDomainOf(e)] : [])))];
    for (const rule of await this.domains.enforcedAmong(
      db,
      domains.filter((d): d is NonNullable<typeof d> => !!d),
    )) {
      if (await this.identities.hasIdentityAt(db, userId, rule.providerId)) continue;
      const provider = await this.providers.find(db, rule.providerId);
      return { domain: rule.domain, providerId: rule.providerId, providerLabel: provider?.label ?? rule.providerId };
    }
    return undefined;
  }

  private async requirementAmong(
    db: Executor,
    emails: ReadonlyArray<string | null | undefined>,
    through: string | undefined,
  ): Promise<SsoRequirement | undefined> {
    const domains = [...new Set(emails.flatMap((email) => (email ? [emailDomainOf(email)] : [])))];
    const enforced = await this.domains.enforcedAmong(
      db,
      domains.filter((d): d is NonNullable<typeof d> => !!d),
    );
    const other = enforced.find((rule: EnforcedDomain) => rule.providerId !== through);
    if (!other) return undefined;
    const provider = await this.providers.find(db, other.providerId);
    return { domain: other.domain, providerId: other.providerId, providerLabel: provider?.label ?? other.providerId };
  }
}
