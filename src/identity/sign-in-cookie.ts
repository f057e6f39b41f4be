import type { Request, Response } from 'express';
import { cookieValue } from '../auth/authorize.js';
import { PENDING_SIGN_IN_MS } from './sign-in.js';

export const SIGN_IN_COOKIE = 'hub_signin';

/**
 * `hub_signin` binds a pending sign-in to the browser that started it. HttpOnly; SameSite=Lax,
 * so the browser sends it on the provider's top-level redirect back to the callback and on no
 * cross-site sub-request; only under `/auth/`, where the callbacks are; as long as a pending
 * sign-in lives; Secure whenever the service is reached over https.
 */
const attributes = (secure: boolean) => ({ httpOnly: true, sameSite: 'lax' as const, path: '/auth/', secure });

export function setSignInCookie(res: Response, token: string, secure: boolean): void {
  res.cookie(SIGN_IN_COOKIE, token, { ...attributes(secure), maxAge: PENDING_SIGN_IN_MS });
}

export function clearSignInCookie(res: Response, secure: boolean): void {
  res.clearCookie(SIGN_IN_COOKIE, attributes(secure));
}

export const signInCookie = (req: Request): string | undefined => cookieValue(req, SIGN_IN_COOKIE);
