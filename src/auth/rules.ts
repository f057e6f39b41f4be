/**
 * Who may call an operation. Every operation declares exactly one rule beside its handler,
 * and the same rule is published as `x-authorization` in openapi.yaml; a test keeps the two
 * equal.
 *
 * - public: anyone (the login link).
 * - session: any valid session.
 * - member: any active member of the addressed organization.
 * - projectCreator: an OWNER or ADMIN, or any active member while the organization's
 *   `membersCanCreateProjects` setting is on.
 * - orgAdmin: an OWNER or ADMIN of the addressed organization.
 * - orgOwner: an OWNER of the addressed organization (its name, its ownership, its existence).
 * - projectRead: a member holding READ or higher on the project (self or an active team),
 *   or an org admin (read-only oversight).
 * - projectManage: a member holding MANAGE on the project; org admins get no override.
 * - platformRuntime: the host's agent runtime, by a platform runtime credential (`hubr_…`) only;
 *   no session and no organization's token, whoever holds it (src/runtime/).
 */
export const RULES = [
  'public',
  'session',
  'member',
  'projectCreator',
  'orgAdmin',
  'orgOwner',
  'projectRead',
  'projectManage',
  'platformRuntime',
] as const;
export type Rule = (typeof RULES)[number];

/** The rules decided by a grant on the project in the path, after the request is validated. */
export type ProjectRule = Extract<Rule, 'projectRead' | 'projectManage'>;

/** Rules whose caller must be signed in. */
export const needsSession = (rule: Rule): boolean => rule !== 'public' && rule !== 'platformRuntime';

/**
 * Rules that address an organization by the `orgSlug` path parameter as one of the caller's. The
 * platform runtime addresses any organization: its operation looks the slug up itself.
 */
export const needsOrganization = (rule: Rule): boolean =>
  rule !== 'public' && rule !== 'session' && rule !== 'platformRuntime';

export const isProjectRule = (rule: Rule): rule is ProjectRule => rule === 'projectRead' || rule === 'projectManage';

/** Rules decided by the caller's org role once the organization is resolved. */
export const isOrgRoleRule = (rule: Rule): rule is 'orgAdmin' | 'orgOwner' | 'projectCreator' =>
  rule === 'orgAdmin' || rule === 'orgOwner' || rule === 'projectCreator';

export const isOrgAdminRole = (role: string): boolean => role === 'OWNER' || role === 'ADMIN';
