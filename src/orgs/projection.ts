import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';
import type { AutoJoinDisabled } from '../auto-join/rule.js';
import type { MemberOrganizationRecord, OrgAccess, OrgSettingsRecord } from './store.js';

/** An organization as the API shows it, and as the audit event of its creation records it. */
export const organizationProjection = projection<MemberOrganizationRecord, Schema<'OrganizationSummary'>>()({
  fields: { id: 'id', slug: 'slug', name: 'name', status: 'status', purgeAt: 'purge_at' },
});

const ofOrganization = organizationProjection.toApi;

/** The organization of the path and the caller's role there. */
export const organizationResponseProjection = projection<OrgAccess, Schema<'OrganizationResponse'>>()({
  fields: {
    organization: { column: 'organization', as: ofOrganization },
    actorRole: 'role',
  },
});

/** One of the caller's memberships and the active teams they are in there. */
export type MyMembership = OrgAccess & { teams: Schema<'MyTeam'>[] };

/** One of the caller's organizations, with their role and teams there. */
export const orgMembershipProjection = projection<MyMembership, Schema<'OrgMembership'>>()({
  fields: {
    id: { column: 'organization', as: (organization) => organization.id },
    slug: { column: 'organization', as: (organization) => organization.slug },
    name: { column: 'organization', as: (organization) => organization.name },
    status: { column: 'organization', as: (organization) => organization.status },
    purgeAt: { column: 'organization', as: (organization) => organization.purge_at },
    role: 'role',
    teams: 'teams',
  },
});

/** The organization's settings as the API shows them, and as their audit events record them. */
export const orgSettingsProjection = projection<OrgSettingsRecord, Schema<'OrgSettings'>>()({
  fields: {
    membersCanCreateProjects: 'members_can_create_projects',
    // A copy, so the answer never shares the stored rule's object.
    autoJoin: {
      from: (row) => row.auto_join && { ...row.auto_join, disabledReason: disabledReasonOf(row.auto_join_disabled) },
    },
    tokens: { column: 'token_policy', as: (policy) => ({ ...policy }) },
  },
});

/** Why the rule is off, in words an admin can act on; null while it applies. */
function disabledReasonOf(disabled: AutoJoinDisabled | null): Schema<'AutoJoinDisabledReason'> | null {
  if (!disabled) return null;
  const { domains } = disabled;
  return {
    code: disabled.code,
    domains,
    message:
      `Switched off: ${domains.join(', ')} ${domains.length === 1 ? 'is' : 'are'} not verified for this ` +
      'organization, and a rule may only admit people of domains it owns. Verify them under Domains, then save ' +
      'the rule again to switch it on.',
  };
}
