import { clearSessionCookie, setSessionCookie } from '../auth/session-cookie.js';
import { sessionToken } from '../auth/authorize.js';
import type { SessionService } from '../auth/sessions.js';
import type { Clock } from '../config/clock.js';
import type { OrganizationService } from '../orgs/service.js';
import { ApiError } from '../errors/api-error.js';
import { escapeHtml, page } from '../http/html.js';
import { sendPage } from '../ops/security-headers.js';
import type { OperationModule } from '../http/operation-table.js';
import { meProjection } from './projection.js';

/** Login by one-time link, the current user, logout. */
export function sessionOperations({
  sessions,
  organizations,
  clock,
  secureCookie: secure,
}: {
  sessions: SessionService;
  /** Whose memberships `/me` lists. */
  organizations: OrganizationService;
  clock: Clock;
  /** Whether the session cookie is `Secure` (the service's base URL is https). */
  secureCookie: boolean;
}) {
  return {
    login: {
      rule: 'public',
      status: 303,
      async handle({ req, res, query }) {
        let issued: Awaited<ReturnType<typeof sessions.redeemLoginLink>>;
        try {
          issued = await sessions.redeemLoginLink(query.token);
        } catch (err) {
          // A person who clicked a stale link gets a page that says what to do, not JSON.
          if (err instanceof ApiError && req.accepts(['json', 'html']) === 'html') {
            sendPage(res, err.status, page('Login link not valid', `<p>${escapeHtml(err.message)}</p>`));
            return undefined;
          }
          throw err;
        }
        // A login replaces whatever session this browser had: never two live tokens per cookie jar.
        const previous = sessionToken(req);
        if (previous) await sessions.logoutToken(previous);
        setSessionCookie(res, issued.token, issued.expiresAt, secure, clock.now());
        res.redirect(303, '/');
        return undefined;
      },
    },

    getMe: {
      rule: 'session',
      async handle({ session }) {
        return meProjection.toApi({
          user: session.user,
          memberships: await organizations.listMembershipsOf(session.user.id),
        });
      },
    },

    logout: {
      rule: 'session',
      status: 204,
      async handle({ res, session }) {
        await sessions.logout(session.tokenHash);
        clearSessionCookie(res, secure);
        return undefined;
      },
    },
  } satisfies OperationModule;
}
