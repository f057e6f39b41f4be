import type { CookieOptions, Response } from 'express';
import { SESSION_COOKIE } from './sessions.js';

/**
 * The session cookie's attributes, in one place: HttpOnly so scripts cannot read it,
 * SameSite=Lax so other sites cannot send it on sub-requests, Path=/ and no Domain so it
 * stays on this host, Secure whenever the service is reached over https.
 */
function attributes(secure: boolean): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure };
}

export function setSessionCookie(res: Response, token: string, expiresAt: Date, secure: boolean, now: Date): void {
  res.cookie(SESSION_COOKIE, token, { ...attributes(secure), maxAge: expiresAt.getTime() - now.getTime() });
}

export function clearSessionCookie(res: Response, secure: boolean): void {
  res.clearCookie(SESSION_COOKIE, attributes(secure));
}
