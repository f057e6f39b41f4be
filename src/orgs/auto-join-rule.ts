import type { Schema } from '../api/types.js';
import { badRequestAt } from '../errors/api-error.js';
import { normalizeDomain } from '../domains/domain-name.js';
import { TENANT_PATTERN } from '../identity/provider-settings.js';
import type { AutoJoinRecord } from './store.js';

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
