import type { Request, Response } from 'express';
import { sessionToken } from '../auth/authorize.js';
import { setSessionCookie } from '../auth/session-cookie.js';
import type { SessionService } from '../auth/sessions.js';
import type { Clock } from '../config/clock.js';
import type { OperationModule } from '../http/operation-table.js';
import type { Logger } from '../log/logger.js';
import { recordSignInOutcome } from './outcome.js';
import { SignInRefused } from './protocol.js';
import { clearSignInCookie, setSignInCookie, signInCookie } from './sign-in-cookie.js';
import type { SignInService, TestedSignIn } from './sign-in.js';
import type { IdentityProvider } from './provider-store.js';
import type { LoginLinkMode } from '../config/config.js';

/** What the sign-in operations use: only their own service, the sessions they replace, and the origin. */
export interface SignInOperationDeps {
  signIn: SignInService;
  /** Which buttons a sign-in page shows (an organization's, or those for a typed address). */
  options: {
    list(query: {
      org?: string;
      email?: string;
      domain?: string;
    }): Promise<Array<Pick<IdentityProvider, 'id' | 'label' | 'kind'>>>;
  };
  loginLinks: LoginLinkMode;
  /** A test sign-in's report (src/directory/test-sign-in.ts), recorded as read. */
  tests: { report(userId: string, tested: TestedSignIn): Promise<unknown> };
  sessions: SessionService;
  clock: Clock;
  baseUrl: string;
}

/**
 * The sign-in routes (docs/decisions.md). The browser is always sent somewhere: to the provider, to
 * `returnTo`, or to `/signin?error=<code>` with the refusal's code; only a malformed request (400)
 * or a flood (429) answers JSON.
 */
export function signInOperations({
  signIn,
  options,
  loginLinks,
  tests,
  sessions,
  clock,
  baseUrl,
}: SignInOperationDeps) {
  const secure = baseUrl.startsWith('https:');
  return {
    listSignInProviders: {
      rule: 'public',
      async handle({ query }) {
        const providers = await options.list({ org: query.org, email: query.email, domain: query.domain });
        return { providers: providers.map(({ id, label, kind }) => ({ id, label, kind })), loginLinks };
      },
    },

    startSignIn: {
      rule: 'public',
      status: 303,
      async handle({ req, res, params, query, log }) {
        try {
          // Connecting one more identity needs the person signed in now; their user is the one it joins.
          const linkUserId = query.link ? await liveUserId(req, sessions, true) : null;
          const started = await signIn.start(params.providerId, query.returnTo, signInCookie(req), linkUserId);
          setSignInCookie(res, started.browserToken, secure);
          res.redirect(303, started.location.href);
        } catch (err) {
          if (!(err instanceof SignInRefused)) throw err;
          refuse(res, query.link ? err.ofLinking() : err, params.providerId, log);
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
            await liveUserId(req, sessions, false),
          );
          if (signedIn.test) {
            recordSignInOutcome(res, { provider: params.providerId, outcome: 'tested' });
            const report = await tests.report(signedIn.userId, signedIn.test);
            // In the fragment only: it never reaches a server, and the page passes it to its opener.
            const fragment = Buffer.from(JSON.stringify(report)).toString('base64url');
            res.redirect(303, `${TEST_REPORT_PATH}#${fragment}`);
            return undefined;
          }
          if (!signedIn.session) {
            recordSignInOutcome(res, { provider: params.providerId, outcome: 'linked' });
            log.info({ provider: params.providerId, userId: signedIn.userId }, 'connected an identity to a user');
            res.redirect(303, signedIn.returnTo);
            return undefined;
          }
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

/** The web app's page a test sign-in's popup lands on, the report in its fragment. */
export const TEST_REPORT_PATH = '/sign-in-test';

/** Where a profile page's "Connect" lands when it is refused: back on that page, which words the code. */
export const PROFILE_PATH = '/profile';

/**
 * Sends the browser to the sign-in page with the refusal's code (to the profile page when it was
 * connecting an identity); the operator's log says why.
 */
function refuse(res: Response, err: SignInRefused, providerId: string, log: Logger): void {
  log.warn({ provider: providerId, code: err.code, reason: err.message }, 'sign-in refused');
  res.set('X-Sign-In-Error', err.code);
  const domain = err.domain === undefined ? '' : `&domain=${encodeURIComponent(err.domain)}`;
  res.redirect(303, `${err.linking ? PROFILE_PATH : '/signin'}?error=${err.code}${domain}`);
}

/** The user of the browser's live session; with `required`, none is a refusal of the connecting start. */
async function liveUserId(req: Request, sessions: SessionService, required: true): Promise<string>;
async function liveUserId(req: Request, sessions: SessionService, required: false): Promise<string | undefined>;
async function liveUserId(req: Request, sessions: SessionService, required: boolean): Promise<string | undefined> {
  const session = await sessions.authenticate(sessionToken(req));
  if (!session && required) {
    throw new SignInRefused('session_required', 'Sign in first to connect another sign-in.', true);
  }
  return session?.user.id;
}
