import type { RequestHandler } from 'express';
import { forbidden } from '../errors/api-error.js';
import { bearerToken } from './authorize.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cookies ride along on cross-site requests, so a state-changing request must show it comes
 * from our own origin: by `Origin`, or where a browser sends none, by `Sec-Fetch-Site`.
 * Requests carrying neither header (curl, server-side SDK use) are not from a browser and
 * cannot be forged by another site.
 */
export function csrfGuard(baseUrl: string): RequestHandler {
  const allowed = ownOrigins(baseUrl);
  return (req, _res, next) => {
    // A bearer token is never sent by a browser on its own, so another site cannot forge one.
    if (SAFE_METHODS.has(req.method) || bearerToken(req) !== undefined) return next();
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (allowed.has(origin)) return next();
      return next(
        forbidden('csrf_rejected', 'Cross-origin request refused: the Origin header does not match this service.'),
      );
    }
    const site = req.headers['sec-fetch-site'];
    if (site === undefined || site === 'same-origin' || site === 'none') return next();
    return next(forbidden('csrf_rejected', `Cross-site request refused (Sec-Fetch-Site: ${String(site)}).`));
  };
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The origins that are this service: the base URL's, and when that is a loopback origin, each
 * spelling of loopback on the same scheme and port (a browser on this machine opens
 * `http://localhost:8080` and `http://127.0.0.1:8080` alike, and no other site can answer there).
 */
export function ownOrigins(baseUrl: string): Set<string> {
  const url = new URL(baseUrl);
  if (!LOOPBACK_NAMES.includes(url.hostname)) return new Set([url.origin]);
  return new Set(
    LOOPBACK_NAMES.map((name) => {
      url.hostname = name;
      return url.origin;
    }),
  );
}
