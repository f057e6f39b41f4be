import type { Request } from 'express';
import { forbidden, notFound, unauthenticated } from '../errors/api-error.js';
import type { ProjectAccess } from '../access/project-access.js';
import type { OrgAccessResolver } from '../orgs/access.js';
import type { OrgAccess } from '../orgs/store.js';
import { isOrgAdminRole, type Rule } from './rules.js';
import { SESSION_COOKIE, type AuthenticatedSession, type SessionService } from './sessions.js';

export interface Authorization {
  session?: AuthenticatedSession;
  access?: OrgAccess;
  project?: ProjectAccess;
}

/**
 * Checks a project rule once the caller is known to be an org member. Projects, grants and
 * teams own that check; the authorizer only calls it.
 */
export type ProjectGuard = (
  rule: 'projectRead' | 'projectManage',
  access: OrgAccess,
  session: AuthenticatedSession,
  projectId: string,
) => Promise<ProjectAccess>;

/**
 * Admits or refuses an org-scoped request once its caller is known to be a member of the
 * organization, before any role or project check: the organization's per-request limits.
 */
export type OrgRequestGuard = (access: OrgAccess, req: Request) => void | Promise<void>;

/** The single mechanism that enforces an operation's declared rule before its handler runs. */
export class Authorizer {
  private projectGuard: ProjectGuard | undefined;
  private orgRequestGuard: OrgRequestGuard | undefined;

  constructor(
    private readonly sessions: SessionService,
    private readonly orgAccess: OrgAccessResolver,
  ) {}

  useProjectGuard(guard: ProjectGuard): void {
    this.projectGuard = guard;
  }

  useOrgRequestGuard(guard: OrgRequestGuard): void {
    this.orgRequestGuard = guard;
  }

  async authorize(rule: Rule, req: Request): Promise<Authorization> {
    if (rule === 'public') return {};
    const session = await this.sessions.authenticate(sessionToken(req));
    if (!session) throw unauthenticated();
    if (rule === 'session') return { session };

    // Non-members learn nothing about whether the organization exists.
    const slug = String(req.params.orgSlug);
    const access = await this.orgAccess.resolve(session.user.id, slug);
    if (!access) throw notFound('org_not_found', `No organization "${slug}" among yours.`);
    if (this.orgRequestGuard) await this.orgRequestGuard(access, req);
    if (rule === 'member') return { session, access };
    if (rule === 'orgAdmin') {
      if (!isOrgAdminRole(access.role)) throw forbidden('org_admin_required', 'Only an organization OWNER or ADMIN may do this.');
      return { session, access };
    }
    if (!this.projectGuard) throw new Error(`rule ${rule} needs a project guard, and none is installed`);
    const project = await this.projectGuard(rule, access, session, String(req.params.projectId));
    return { session, access, project };
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
