import type { Request, RequestHandler } from 'express';
import { RateWindows } from '../../capacity/rate-window.js';
import { type Clock, MINUTE_MS } from '../../config/clock.js';
import { ApiError } from '../../errors/api-error.js';
import { clientAddressKey } from '../../shared/ip-address.js';
import type { Stage } from './stage.js';

/**
 * Per client address limits on what anyone may send without being signed in. The client address
 * is `req.ip`: the socket's, or behind the proxies `HUB_TRUSTED_PROXIES` names, the right-most
 * `X-Forwarded-For` hop that is not one of them, counted by `clientAddressKey` (an IPv6 client by
 * its /64). Counted in this process's memory: each instance
 * allows the limits on its own.
 */
export class AddressLimit {
  private readonly windows = new RateWindows(MINUTE_MS);

  constructor(
    /** What is counted, for the message of a refusal ("sign-in attempts"). */
    private readonly counted: string,
    private readonly perMinute: number,
    private readonly clock: Clock,
  ) {}

  /** Counts one more from the request's address: undefined when admitted, else the 429 to answer. */
  take(req: Request): ApiError | undefined {
    const waitMs = this.windows.take(addressOf(req), this.perMinute, this.clock.now().getTime());
    return waitMs === 0 ? undefined : this.refusal(waitMs);
  }

  /**
   * Counts one more before the work it limits is done, so requests sent at once cannot all pass
   * a check made before any of them was counted: the 429 to answer, or the function that gives the
   * count back when the request turns out not to count (a login link that logged in).
   */
  reserve(req: Request): { refused: ApiError } | { giveBack: () => void } {
    const key = addressOf(req);
    const takenAt = this.clock.now().getTime();
    const waitMs = this.windows.take(key, this.perMinute, takenAt);
    if (waitMs !== 0) return { refused: this.refusal(waitMs) };
    return { giveBack: () => this.windows.giveBack(key, takenAt, this.clock.now().getTime()) };
  }

  private refusal(waitMs: number): ApiError {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    return new ApiError(
      429,
      'rate_limited',
      `Too many ${this.counted} from this address; retry in ${seconds} s.`,
      undefined,
      { 'Retry-After': String(seconds) },
    );
  }
}

const addressOf = (req: Request): string => clientAddressKey(req.ip ?? 'unknown');

/** The limits of anonymous traffic (`HUB_SIGNIN_RATE`, `HUB_AUTH_FAILURE_RATE`). */
export interface AnonymousLimits {
  /** Every start and callback of a sign-in through an identity provider: each costs a provider round trip. */
  signIns: AddressLimit;
  /**
   * Failed credentials: login links that did not log in, API tokens refused. Only failures count,
   * so people and programs with good credentials are never held back by someone else's flood.
   */
  failures: AddressLimit;
}

export function anonymousLimits(
  limits: { signInRatePerMinute: number; authFailureRatePerMinute: number },
  clock: Clock,
): AnonymousLimits {
  return {
    signIns: new AddressLimit('sign-in attempts', limits.signInRatePerMinute, clock),
    failures: new AddressLimit('failed sign-ins or refused API tokens', limits.authFailureRatePerMinute, clock),
  };
}

const SIGN_IN_OPERATIONS = new Set(['startSignIn', 'finishSignIn']);

/**
 * 429 `rate_limited` with `Retry-After` for the anonymous entrances: a sign-in's start and
 * callback count each time; a login link takes one failure before it is looked up and gives it
 * back when it logs in, so however many bad links arrive at once, no more are looked up than the
 * limit. (Refused API tokens are counted where they are refused, `authenticate`.)
 */
export const limitAnonymousRequests =
  (limits: AnonymousLimits): Stage =>
  ({ operationId }) => {
    if (SIGN_IN_OPERATIONS.has(operationId)) return (req, _res, next) => next(limits.signIns.take(req));
    if (operationId !== 'login') return undefined;
    const login: RequestHandler = (req, res, next) => {
      const reserved = limits.failures.reserve(req);
      if ('refused' in reserved) return next(reserved.refused);
      res.once('finish', () => {
        if (res.statusCode < 400) reserved.giveBack();
      });
      next();
    };
    return login;
  };
