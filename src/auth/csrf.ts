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
export function csrfGuard(allowedOrigin: string): RequestHandler {
  return (req, _res, next) => {
    // A bearer token is never sent by a browser on its own, so another site cannot forge one.
    if (SAFE_METHODS.has(req.method) || bearerToken(req) !== undefined) return next();
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (origin === allowedOrigin) return next();
      return next(
        forbidden('csrf_rejected', 'Cross-origin request refused: the Origin header does not match this service.'),
      );
    }
    const site = req.headers['sec-fetch-site'];
    if (site === undefined || site === 'same-origin' || site === 'none') return next();
    return next(forbidden('csrf_rejected', `Cross-site request refused (Sec-Fetch-Site: ${String(site)}).`));
  };
}
