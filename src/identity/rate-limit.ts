import { RateWindows } from '../capacity/rate-window.js';
import { type Clock, MINUTE_MS } from '../config/clock.js';
import { ApiError } from '../errors/api-error.js';
import type { Stage } from '../http/pipeline/stage.js';

/** The operations that start or finish a sign-in: anonymous, and each one costs a provider round trip. */
const SIGN_IN_OPERATIONS = new Set(['startSignIn', 'finishSignIn']);

/**
 * 429 `rate_limited` with `Retry-After` once one client address has made `perMinute` sign-in
 * attempts in a minute. The client address is `req.ip`: the socket's, or behind the proxies
 * `HUB_TRUSTED_PROXIES` names, the right-most `X-Forwarded-For` hop that is not one of them.
 * Counted in this process's memory: each instance allows the limit on its own.
 */
export function limitSignInsPerAddress(perMinute: number, clock: Clock): Stage {
  const windows = new RateWindows(MINUTE_MS);
  return ({ operationId }) => {
    if (!SIGN_IN_OPERATIONS.has(operationId)) return undefined;
    return (req, _res, next) => {
      const waitMs = windows.take(req.ip ?? 'unknown', perMinute, clock.now().getTime());
      if (waitMs === 0) return next();
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      next(
        new ApiError(
          429,
          'rate_limited',
          `Too many sign-in attempts from this address; retry in ${seconds} s.`,
          undefined,
          {
            'Retry-After': String(seconds),
          },
        ),
      );
    };
  };
}
