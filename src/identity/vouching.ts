import { emailDomainOf } from '../domains/domain-name.js';
import type { ProviderSettings } from './provider-store.js';

/**
 * Whether a provider vouches for an email address: it says the address is verified, and the
 * address's domain is one of the provider's `--email-domains`. Any provider may say any address
 * is verified (a partner's, a self-hosted one); it speaks only for the domains the operator gave
 * it, and without that list for none. Invitations bound to an address and automatic membership by
 * email domain count only what a provider vouches for. Lark providers have no list, as the
 * platform does not say whether an address is verified: their members join by tenant key.
 */
export function vouchesFor(
  provider: Pick<ProviderSettings, 'allowedEmailDomains'>,
  email: string | null | undefined,
  emailVerified: boolean,
): boolean {
  if (!emailVerified || !email) return false;
  const domain = emailDomainOf(email);
  return domain !== undefined && provider.allowedEmailDomains.includes(domain);
}
