import { clearSessionCookie, setSessionCookie } from '../auth/session-cookie.js';
import { sessionToken } from '../auth/authorize.js';
import type { SessionService } from '../auth/sessions.js';
import type { Clock } from '../config/clock.js';
import { ApiError, notFound } from '../errors/api-error.js';
import { escapeHtml, page } from '../http/html.js';
import { sendPage } from '../ops/security-headers.js';
import type { OperationModule } from '../http/operation-table.js';
import type { MeService } from './me.js';
import { meProjection, mySessionProjection } from './projection.js';

/** Login by one-time link, the current user and their sessions, logout. */
export function sessionOperations({
  sessions,
  me,
  clock,
  secureCookie: secure,
}: {
  sessions: SessionService;
  /** What `/me` shows of the person. */
  me: MeService;
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
            sendPage(
              res,
              err.status,
              page('Login link not valid', `<p>${escapeHtml(err.message)}</p>${signInWith(err)}`),
            );
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
      handle: async ({ session }) => meProjection.toApi(await me.of(session.user)),
    },

    updateMe: {
      rule: 'session',
      handle: async ({ session, body }) => meProjection.toApi(await me.setDisplayName(session.user, body.displayName)),
    },

    listMySessions: {
      rule: 'session',
      async handle({ session }) {
        const rows = await sessions.listOf(session.user.id);
        return { sessions: rows.map((row) => mySessionProjection.toApi({ ...row, currentId: session.id })) };
      },
    },

    revokeMySession: {
      rule: 'session',
      status: 204,
      async handle({ res, session, params }) {
        const ended = await sessions.end(session.user.id, { only: params.sessionId });
        if (ended === 0) throw notFound('session_not_found', `You have no live session "${params.sessionId}".`);
        // Ending the session of this very request is signing out here.
        if (params.sessionId === session.id) clearSessionCookie(res, secure);
        return undefined;
      },
    },

    revokeOtherSessions: {
      rule: 'session',
      handle: async ({ session }) => ({ ended: await sessions.end(session.user.id, { except: session.id }) }),
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

/** For `sso_required`: a link to sign in through the provider the person's domain requires. */
function signInWith(err: ApiError): string {
  const required = err.extra?.requiredSignIn as { providerId: string; providerLabel: string } | undefined;
  if (!required) return '';
  const href = `/auth/${encodeURIComponent(required.providerId)}/start`;
  return `<p><a href="${escapeHtml(href)}">Sign in with ${escapeHtml(required.providerLabel)}</a></p>`;
}
