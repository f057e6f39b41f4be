import type { Schema } from '../api/types.js';
import { badRequestAt } from '../errors/api-error.js';
import { DOMAIN_PATTERN, TENANT_PATTERN } from '../identity/provider-settings.js';
import type { AutoJoinRecord } from './store.js';

/**
 * An automatic-membership rule as the request gives it, checked and normalized: domains
 * lower-cased and each a bare domain, tenant keys as providers spell them, duplicates dropped, and
 * at least one of the two (a rule that matches nobody is a mistake, not a setting). Whether the
 * provider exists is the caller's check: it needs the database.
 */
export function checkAutoJoinRule(input: Schema<'AutoJoinRequest'>): AutoJoinRecord {
  const emailDomains = [...new Set((input.emailDomains ?? []).map((d) => d.trim().toLowerCase()))];
  emailDomains.forEach((domain, i) => {
    if (!DOMAIN_PATTERN.test(domain)) {
      throw badRequestAt({
        path: `/body/autoJoin/emailDomains/${i}`,
        message: `"${domain}" is not a bare domain such as example.com (no wildcard, no "@")`,
      });
    }
  });
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
