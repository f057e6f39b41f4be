import { DAY_MS } from '../config/clock.js';
import { unprocessable } from '../errors/api-error.js';
import type { Schema } from '../api/types.js';

export type TokenPolicy = Schema<'TokenPolicy'>;
export type TokenOwnerType = Schema<'ApiTokenOwner'>['type'];

/** What an organization that never set a policy has: personal tokens, no expiry required, no limits. */
export const DEFAULT_TOKEN_POLICY: TokenPolicy = {
  personalAllowed: true,
  requireExpiry: false,
  maxLifetimeDays: null,
  revokeUnusedAfterDays: null,
};

/** The stored policy (JSON, null for the defaults) with every rule present. */
export const tokenPolicyFromStored = (stored: string | null | undefined): TokenPolicy =>
  stored ? { ...DEFAULT_TOKEN_POLICY, ...(JSON.parse(stored) as Partial<TokenPolicy>) } : { ...DEFAULT_TOKEN_POLICY };

const violation = (rule: keyof TokenPolicy, message: string) =>
  unprocessable('token_policy_violation', `The organization's token policy (${rule}) ${message}`);

/**
 * The one check of a token being issued (created or rotated) against the policy in force now.
 * Only issuing is checked: a token already issued keeps the expiry it was given, whatever the
 * policy becomes, so a change of policy never extends one.
 */
export function checkTokenPolicy(
  policy: TokenPolicy,
  token: { owner: TokenOwnerType; expiresAt: Date | null; now: Date },
): void {
  if (token.owner === 'member' && !policy.personalAllowed) {
    throw violation('personalAllowed', 'allows no personal tokens; ask an org admin for a service-account token.');
  }
  if (token.expiresAt === null && policy.requireExpiry) {
    throw violation('requireExpiry', 'requires every token to have an expiresAt.');
  }
  if (policy.maxLifetimeDays !== null) {
    const latest = token.now.getTime() + policy.maxLifetimeDays * DAY_MS;
    if (token.expiresAt === null || token.expiresAt.getTime() > latest) {
      const until = new Date(latest).toISOString();
      throw violation(
        'maxLifetimeDays',
        `allows tokens of at most ${policy.maxLifetimeDays} days: set an expiresAt no later than ${until}.`,
      );
    }
  }
}
