import type { Response } from 'express';
import { sessionToken } from '../auth/authorize.js';
import { setSessionCookie } from '../auth/session-cookie.js';
import type { SessionService } from '../auth/sessions.js';
import type { Clock } from '../config/clock.js';
import type { OperationModule } from '../http/operation-table.js';
import type { Logger } from '../log/logger.js';
import { recordSignInOutcome } from './outcome.js';
import { SignInRefused } from './protocol.js';
import { clearSignInCookie, setSignInCookie, signInCookie } from './sign-in-cookie.js';
import type { SignInService } from './sign-in.js';

/** What the sign-in operations use: only their own service, the sessions they replace, and the origin. */
export interface SignInOperationDeps {
  signIn: SignInService;
  sessions: SessionService;
  clock: Clock;
  baseUrl: string;
}

/**
 * The sign-in routes (docs/decisions.md). The browser is always sent somewhere: to the provider, to
 * `returnTo`, or to `/signin?error=<code>` with the refusal's code; only a malformed request (400)
 * or a flood (429) answers JSON.
 */
export function signInOperations({ signIn, sessions, clock, baseUrl }: SignInOperationDeps) {
  const secure = baseUrl.startsWith('https:');
  return {
    listSignInProviders: {
      rule: 'public',
      async handle() {
        const providers = await signIn.listProviders();
        return { providers: providers.map(({ id, label, kind }) => ({ id, label, kind })) };
      },
    },

    startSignIn: {
      rule: 'public',
      status: 303,
      async handle({ req, res, params, query, log }) {
        try {
          const started = await signIn.start(params.providerId, query.returnTo, signInCookie(req));
          setSignInCookie(res, started.browserToken, secure);
          res.redirect(303, started.location.href);
        } catch (err) {
          if (!(err instanceof SignInRefused)) throw err;
          refuse(res, err, params.providerId, log);
        }
        return undefined;
      },
    },

    finishSignIn: {
      rule: 'public',
      status: 303,
      async handle({ req, res, params, query, log }) {
        const browserToken = signInCookie(req);
        clearSignInCookie(res, secure);
        try {
          const url = new URL(req.originalUrl, baseUrl);
          const signedIn = await signIn.finish(
            params.providerId,
            { state: query.state, error: query.error, url, requestId: (res.locals.requestId as string) ?? null },
            browserToken,
          );
          // A sign-in replaces whatever session this browser had, as a login link does.
          const previous = sessionToken(req);
          if (previous) await sessions.logoutToken(previous);
          setSessionCookie(res, signedIn.session.token, signedIn.session.expiresAt, secure, clock.now());
          recordSignInOutcome(res, { provider: params.providerId, outcome: 'success' });
          log.info({ provider: params.providerId, userId: signedIn.userId }, 'signed in through an identity provider');
          res.redirect(303, signedIn.returnTo);
        } catch (err) {
          if (!(err instanceof SignInRefused)) throw err;
          const known = err.code !== 'provider_unavailable';
          recordSignInOutcome(res, { provider: known ? params.providerId : 'unknown', outcome: err.code });
          refuse(res, err, params.providerId, log);
        }
        return undefined;
      },
    },
  } satisfies OperationModule;
}

/** Sends the browser to the sign-in page with the refusal's code; the operator's log says why. */
function refuse(res: Response, err: SignInRefused, providerId: string, log: Logger): void {
  log.warn({ provider: providerId, code: err.code, reason: err.message }, 'sign-in refused');
  res.set('X-Sign-In-Error', err.code);
  res.redirect(303, `/signin?error=${err.code}`);
}
