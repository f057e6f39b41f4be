import type { Authorizer } from '../../auth/authorize.js';
import { needsSession } from '../../auth/rules.js';
import { ApiError } from '../../errors/api-error.js';
import type { AddressLimit } from './address-limit.js';
import { contextOf, type Stage } from './stage.js';

/**
 * 401 unless the request carries a valid session cookie or API token (every rule but
 * `public`): `unauthenticated`, or `token_invalid` for an unknown, expired or revoked token.
 * Each refused token counts against the client address's `failures`; past their limit the
 * refusal is 429 `rate_limited` instead, so a flood of guessed tokens is told to wait. A good
 * token or session is never counted nor refused by it.
 */
export const authenticate =
  (authorizer: Authorizer, failures: AddressLimit): Stage =>
  (operation) => {
    if (!needsSession(operation.rule)) return undefined;
    return async (req, res, next) => {
      const context = contextOf(res);
      try {
        const caller = await authorizer.authenticate(req, operation);
        context.session = caller.session;
        context.token = caller.token;
      } catch (err) {
        if (err instanceof ApiError && err.code === 'token_invalid') throw failures.take(req) ?? err;
        throw err;
      }
      next();
    };
  };
