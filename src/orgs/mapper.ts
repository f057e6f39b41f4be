import type { Schema } from '../api/types.js';
import type { AutoJoinDisabled, MemberOrganizationRecord, OrgAccess, OrgSettingsRecord } from './store.js';

/** An organization as the API shows it, and as the audit event of its creation records it. */
export const toOrganizationSummary = (row: MemberOrganizationRecord): Schema<'OrganizationSummary'> => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  status: row.status,
});

/** The organization of the path and the caller's role there. */
export const toOrganizationResponse = ({ organization, role }: OrgAccess): Schema<'OrganizationResponse'> => ({
  organization: toOrganizationSummary(organization),
  actorRole: role,
});

/** One of the caller's organizations, with their role there. */
export const toOrgMembership = ({ organization, role }: OrgAccess): Schema<'OrgMembership'> => ({
  ...toOrganizationSummary(organization),
  role,
});

/** The organization's settings as the API shows them, and as their audit events record them. */
export const toOrgSettings = (row: OrgSettingsRecord): Schema<'OrgSettings'> => ({
  membersCanCreateProjects: row.members_can_create_projects,
  autoJoin: row.auto_join && { ...row.auto_join, disabledReason: disabledReasonOf(row.auto_join_disabled) },
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
