import { type AuditScope, withAuditScope } from '../audit/scope.js';
import { type AuditedChange, recordChange } from '../audit/trail.js';
import type { Executor } from '../db/unit-of-work.js';
import type { OrgAccess } from '../orgs/store.js';

/** Where a person's own identities are audited: each organization they are an active member of. */
export interface MembershipsOf {
  listActiveMemberships(db: Executor, userId: string): Promise<Array<Pick<OrgAccess, 'organization' | 'memberName'>>>;
}

/**
 * Records a change to the person's identities in the audit log of each organization they are a
 * member of, in the transaction that makes it. Each log names the person as that organization
 * names them (src/users/shown-profile.ts), never by a name another one gave.
 */
export async function recordInEachOrganization(
  trx: Executor,
  memberships: MembershipsOf,
  userId: string,
  call: Omit<AuditScope, 'actor'>,
  change: Omit<AuditedChange, 'organizationId'>,
): Promise<void> {
  for (const { organization, memberName } of await memberships.listActiveMemberships(trx, userId)) {
    const actor = { type: 'user' as const, id: userId, displayName: memberName };
    await withAuditScope({ ...call, actor }, () => recordChange(trx, { ...change, organizationId: organization.id }));
  }
}

/** An identity as its audit events record it (no subject, no email: neither is the organization's). */
export const identityAuditView = (identity: { id: string; providerId: string; providerLabel: string }) => ({
  id: identity.id,
  providerId: identity.providerId,
  providerLabel: identity.providerLabel,
});
