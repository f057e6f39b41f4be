import type { Request } from 'express';
import { forbidden, notFound, unauthenticated } from '../errors/api-error.js';
import type { OrgAccessResolver } from '../orgs/org-access-resolver.js';
import type { OrgAccess, OrgSettings } from '../orgs/store.js';
import type { GuardedOperation, ProjectAccess, ProjectGuard } from '../projects/project-guard.js';
import { isOrgAdminRole, type ProjectRule, type Rule } from './rules.js';
import { SESSION_COOKIE, type AuthenticatedSession, type SessionService } from './sessions.js';

export interface AuthorizerDeps {
  sessions: SessionService;
  memberships: OrgAccessResolver;
  /** Decides the project rules; built with the authorizer, so every rule is decidable from the start. */
  projects: ProjectGuard;
  /** The organization's settings, for the `projectCreator` rule. */
  settingsOf: (organizationId: string) => Promise<OrgSettings>;
}

/**
 * The one place an operation's declared rule is decided, one question at a time, so the
 * request pipeline can ask each at its own stage: who is calling, which organization they
 * address, whether their org role admits the operation, and whether their grants admit it
 * on the project in the path.
 */
export class Authorizer {
  constructor(private readonly deps: AuthorizerDeps) {}

  /** The caller's session (401 without a valid one). */
  async authenticate(req: Request): Promise<AuthenticatedSession> {
    const session = await this.deps.sessions.authenticate(sessionToken(req));
    if (!session) throw unauthenticated();
    return session;
  }

  /** The caller's membership in the organization of the path; non-members learn nothing of it. */
  async resolveOrganization(session: AuthenticatedSession, slug: string): Promise<OrgAccess> {
    const access = await this.deps.memberships.resolve(session.user.id, slug);
    if (!access) throw notFound('org_not_found', `No organization "${slug}" among yours.`);
    return access;
  }

  /** The org-role part of a rule: `orgAdmin`, and `projectCreator` (admins, or members when the setting allows). */
  async checkOrgRole(rule: Rule, operation: GuardedOperation, access: OrgAccess): Promise<void> {
    if (rule !== 'orgAdmin' && rule !== 'projectCreator') return;
    if (isOrgAdminRole(access.role)) return;
    const refused = `"${operation.summary}" (${operation.operationId})`;
    if (rule === 'projectCreator') {
      if ((await this.deps.settingsOf(access.organization.id)).membersCanCreateProjects) return;
      throw forbidden(
        'org_admin_required',
        `${refused} is for org admins here; an admin can allow members in the settings.`,
      );
    }
    throw forbidden('org_admin_required', `${refused} is for an organization OWNER or ADMIN.`);
  }

  /** The grant part of a project rule, for the project in the path. */
  checkProject(
    rule: ProjectRule,
    operation: GuardedOperation,
    access: OrgAccess,
    session: AuthenticatedSession,
    projectId: string,
  ): Promise<ProjectAccess> {
    return this.deps.projects.check(rule, operation, access, session.user.id, projectId);
  }
}

/**
 * The session token from the Cookie header. Only this one cookie matters to the service, so it
 * is picked out directly rather than parsing every cookie of every request.
 */
export function sessionToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}
