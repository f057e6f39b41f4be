/**
 * Who may call an operation. Every operation declares exactly one rule beside its handler,
 * and the same rule is published as `x-authorization` in openapi.yaml; a test keeps the two
 * equal.
 *
 * - public: anyone (the login link).
 * - session: any valid session.
 * - member: any active member of the addressed organization.
 * - orgAdmin: an OWNER or ADMIN of the addressed organization.
 * - projectRead: a member holding READ or higher on the project (self or an active team),
 *   or an org admin (read-only oversight).
 * - projectManage: a member holding MANAGE on the project; org admins get no override.
 */
export const RULES = ['public', 'session', 'member', 'orgAdmin', 'projectRead', 'projectManage'] as const;
export type Rule = (typeof RULES)[number];

export const isOrgAdminRole = (role: string): boolean => role === 'OWNER' || role === 'ADMIN';
