import type { Schema } from '../api/types.js';
import { badRequestAt } from '../errors/api-error.js';
import { emailDomainOf, normalizeDomain } from '../domains/domain-name.js';
import type { ProviderProfile } from '../identity/protocol.js';
import { TENANT_PATTERN } from '../identity/provider-settings.js';

/**
 * An organization's automatic-membership rule, kept with its settings (the provider in its column,
 * the rest as JSON): a sign-in through `providerId` whose vouched email is at one of
 * `emailDomains`, or whose account is in one of `tenantKeys`, makes the user a member with `role`.
 */
export interface AutoJoinRecord {
  providerId: string;
  emailDomains: string[];
  tenantKeys: string[];
  role: 'MEMBER';
}

/** Why a kept automatic-membership rule does not apply: its email domains were not verified. */
export interface AutoJoinDisabled {
  code: 'domain_not_verified';
  domains: string[];
}

/** Why the rule admitted the user, as its audit event records it. */
export type AutoJoinMatch = { emailDomain: string } | { tenantKey: string };

/**
 * An automatic-membership rule as the request gives it, checked and normalized: domains in their
 * kept spelling (src/domains/domain-name.ts), tenant keys as providers spell them, duplicates dropped, and
 * at least one of the two (a rule that matches nobody is a mistake, not a setting). Whether the
 * provider exists and the domains are verified are the caller's checks: they need the database.
 */
export function checkAutoJoinRule(input: Schema<'AutoJoinRequest'>): AutoJoinRecord {
  const emailDomains = [
    ...new Set(
      (input.emailDomains ?? []).map((raw, i) => {
        const result = normalizeDomain(raw);
        if ('domain' in result) return result.domain as string;
        throw badRequestAt({ path: `/body/autoJoin/emailDomains/${i}`, message: `"${raw}" ${result.problem}` });
      }),
    ),
  ];
  const tenantKeys = [...new Set((input.tenantKeys ?? []).map((k) => k.trim()))];
  tenantKeys.forEach((key, i) => {
    if (!TENANT_PATTERN.test(key)) {
      throw badRequestAt({
        path: `/body/autoJoin/tenantKeys/${i}`,
        message: 'must be 1 to 128 letters, digits or . _ : -',
      });
    }
  });
  if (emailDomains.length === 0 && tenantKeys.length === 0) {
    throw badRequestAt({ path: '/body/autoJoin', message: 'must name at least one email domain or tenant key' });
  }
  return { providerId: input.providerId, emailDomains, tenantKeys, role: input.role };
}

/**
 * What in a sign-in's profile the rule admits, if anything: the email's domain only when the
 * provider vouches for the email (`vouched`, src/identity/vouching.ts), else the account's tenant.
 */
export function matchOf(
  rule: AutoJoinRecord,
  profile: Pick<ProviderProfile, 'email' | 'tenant'>,
  vouched: boolean,
): AutoJoinMatch | undefined {
  const domain = vouched && profile.email ? emailDomainOf(profile.email) : undefined;
  if (domain && rule.emailDomains.includes(domain)) return { emailDomain: domain };
  if (profile.tenant && rule.tenantKeys.includes(profile.tenant)) return { tenantKey: profile.tenant };
  return undefined;
}
