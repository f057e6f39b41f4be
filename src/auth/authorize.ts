import type { Request } from 'express';
import type { AuthenticatedToken, ApiTokenService } from '../api-tokens/service.js';
import { type AreaScope, runtimeAdmits, scopesAdmit } from '../api-tokens/scopes.js';
import { forbidden, notFound, unauthenticated } from '../errors/api-error.js';
import type { OrgAccessResolver } from '../orgs/org-access-resolver.js';
import type { OrgAccess } from '../orgs/store.js';
import {
  describeOperation,
  type GuardedOperation,
  type ProjectAccess,
  type ProjectGuard,
} from '../projects/project-guard.js';
import { isOrgAdminRole, isOrgRoleRule, needsOrganization, type ProjectRule, type Rule } from './rules.js';
import { SESSION_COOKIE, type AuthenticatedSession, type SessionService } from './sessions.js';

export interface AuthorizerDeps {
  sessions: SessionService;
  tokens: ApiTokenService;
  memberships: OrgAccessResolver;
  /** Decides the project rules; built with the authorizer, so every rule is decidable from the start. */
  projects: ProjectGuard;
  /** The organization's setting the `projectCreator` rule reads. */
  membersCanCreateProjects: (organizationId: string) => Promise<boolean>;
}

/**
 * Who is calling: a member through their session cookie, or through an API token acting for
 * them (then `token` is set, and `session` carries the token's member, id and expiry).
 */
export interface Caller {
  session: AuthenticatedSession;
  token?: AuthenticatedToken;
}

/** What authentication needs to know of the operation: tokens work on organization paths only. */
export interface AuthenticatedOperation {
  rule: Rule;
}

/**
 * The one place an operation's declared rule is decided, one question at a time, so the
 * request pipeline can ask each at its own stage: who is calling, which organization they
 * address, whether their org role admits the operation, and whether their grants admit it
 * on the project in the path.
 */
export class Authorizer {
  constructor(private readonly deps: AuthorizerDeps) {}

  /**
   * The caller (401 without valid credentials). A bearer token wins over a cookie: the header
   * is set on purpose by the client, a cookie rides along whatever the client meant.
   */
  async authenticate(req: Request, operation: AuthenticatedOperation): Promise<Caller> {
    const bearer = bearerToken(req);
    if (bearer === undefined) {
      const session = await this.deps.sessions.authenticate(sessionToken(req), clientOf(req));
      if (!session) throw unauthenticated();
      return { session };
    }
    // Refused before the token is looked up: nothing to learn about a token from these paths.
    if (!needsOrganization(operation.rule)) {
      throw unauthenticated('API tokens work on /api/org/{orgSlug}/… paths only; this one needs a signed-in session.');
    }
    const token = await this.deps.tokens.authenticate(bearer);
    return {
      session: { id: token.id, tokenHash: token.tokenHash, user: token.user, expiresAt: token.expiresAt },
      token,
    };
  }

  /**
   * The caller's membership in the organization of the path; non-members learn nothing of it,
   * and neither does a token of another organization. A slug the caller's organization gave up
   * by a rename answers where it leads now (`renamedTo`), for the stage to redirect to.
   */
  async resolveOrganization(caller: Caller, slug: string): Promise<OrgAccess | { renamedTo: string }> {
    const userId = caller.session.user.id;
    const access = await this.deps.memberships.resolve(userId, slug);
    if (!access) {
      // An old slug of one of the caller's organizations: it leads there (a token only to its own).
      const renamedTo = await this.deps.memberships.renamedTo(userId, slug);
      const current = renamedTo && (await this.deps.memberships.resolve(userId, renamedTo));
      if (current && (!caller.token || caller.token.organizationId === current.organization.id)) return { renamedTo };
    }
    if (!access || (caller.token && caller.token.organizationId !== access.organization.id)) {
      throw notFound('org_not_found', `No organization "${slug}" among yours.`);
    }
    return access;
  }

  /** 403 `token_scope_required` when an API token calls what its scopes (or any token) may not. */
  checkTokenScope(
    token: AuthenticatedToken,
    operation: GuardedOperation & { scope: AreaScope | undefined; runtime: boolean },
  ): void {
    if (runtimeAdmits(token, operation)) return;
    const named = describeOperation(operation);
    if (operation.scope === undefined) {
      throw forbidden('token_scope_required', `${named} cannot be called with an API token; sign in instead.`);
    }
    if (!scopesAdmit(token.scopes, operation.scope)) {
      throw forbidden('token_scope_required', `${named} needs a token with the scope "${operation.scope}".`);
    }
  }

  /**
   * The org-role part of a rule: `orgOwner` (OWNERs), `orgAdmin`, and `projectCreator` (admins, or
   * members when the setting allows).
   */
  async checkOrgRole(
    rule: Rule,
    operation: GuardedOperation & { runtime: boolean },
    access: OrgAccess,
    token?: AuthenticatedToken,
  ): Promise<void> {
    if (!isOrgRoleRule(rule)) return;
    // The runtime's token is admitted by its scope, whatever its account's role (scopes.ts).
    if (token && runtimeAdmits(token, operation)) return;
    const refused = describeOperation(operation);
    if (rule === 'orgOwner') {
      if (access.role === 'OWNER') return;
      throw forbidden('owner_required', `${refused} is for an OWNER of the organization.`);
    }
    if (isOrgAdminRole(access.role)) return;
    if (rule === 'projectCreator') {
      if (await this.deps.membersCanCreateProjects(access.organization.id)) return;
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
 * The value of `Authorization: Bearer <value>`; '' for an Authorization header of any other
 * shape (refused as an invalid token, never mistaken for no credential); undefined without one.
 */
export function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match ? match[1] : '';
}

/** The browser and address of a request, as a session's list shows where it was seen from. */
const clientOf = (req: Request) => ({
  userAgent: (req.headers['user-agent'] ?? '').slice(0, 512),
  address: (req.ip ?? req.socket.remoteAddress ?? '').slice(0, 64),
});

/** The session token from the Cookie header. */
export function sessionToken(req: Request): string | undefined {
  return cookieValue(req, SESSION_COOKIE);
}

/**
 * One cookie's value from the request's `Cookie` header; undefined when absent or empty. The
 * service reads only its own few cookies, so each is picked out directly rather than parsing
 * every cookie of every request.
 */
export function cookieValue(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}
