import { clearSessionCookie, setSessionCookie } from '../auth/session-cookie.js';
import { sessionToken } from '../auth/authorize.js';
import type { Services } from '../app/services.js';
import type { OperationModule } from '../http/operation-table.js';

/** Login by one-time link, the current user, logout. */
export function sessionOperations(services: Services): OperationModule {
  const { sessions, organizations, clock } = services;
  const secure = services.config.baseUrl.startsWith('https:');
  return {
    login: {
      rule: 'public',
      status: 303,
      async handle({ req, res, query }) {
        const issued = await sessions.redeemLoginLink(query.token);
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
        const memberships = await organizations.listMembershipsOf(session.user.id);
        const { user } = session;
        return {
          user: { id: user.id, imOpenId: user.imOpenId, displayName: user.displayName, avatarUrl: user.avatarUrl },
          organizations: memberships.map(({ organization, role }) => ({ ...organization, role })),
        };
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
  };
}
