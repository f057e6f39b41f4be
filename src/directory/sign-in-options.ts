import type { UnitOfWork } from '../db/unit-of-work.js';
import { emailDomainOf } from '../domains/domain-name.js';
import type { DomainStore } from '../domains/store.js';
import type { IdentityProviderService } from '../identity/providers.js';
import type { IdentityProvider } from '../identity/provider-store.js';
import type { OrganizationStore } from '../orgs/store.js';

/**
 * Which sign-in buttons a page shows: the operator's providers; on an organization's sign-in page
 * (`?org=`) its own first, then the operator's; and, for an address the person typed (`?email=`),
 * the providers of the organization that verified its domain before the operator's, or only the
 * one the domain requires. Only enabled providers; an unknown organization or domain shows what it
 * would without.
 */
export class SignInOptions {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly providers: IdentityProviderService,
    private readonly orgs: OrganizationStore,
    private readonly domains: DomainStore,
  ) {}

  async list(query: {
    org?: string | undefined;
    email?: string | undefined;
    domain?: string | undefined;
  }): Promise<IdentityProvider[]> {
    const db = this.uow.executor;
    const platform = await this.providers.listEnabled();
    if (query.org !== undefined) {
      const org = await this.orgs.findBySlug(db, query.org);
      return org ? [...(await this.providers.listEnabledOf(org.id)), ...platform] : platform;
    }
    const raw = query.email ?? (query.domain === undefined ? undefined : `someone@${query.domain}`);
    const domain = raw === undefined ? undefined : emailDomainOf(raw);
    const verified = domain && (await this.domains.verifiedRow(db, domain));
    if (!verified) return platform;
    const own = await this.providers.listEnabledOf(verified.organization_id);
    const required = verified.enforce_sso_provider_id;
    if (required) return [...own, ...platform].filter((provider) => provider.id === required);
    return [...own, ...platform];
  }
}
