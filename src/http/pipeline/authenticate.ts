import type { Authorizer } from '../../auth/authorize.js';
import { needsSession } from '../../auth/rules.js';
import { contextOf, type Stage } from './stage.js';

/**
 * 401 unless the request carries a valid session cookie or API token (every rule but
 * `public`): `unauthenticated`, or `token_invalid` for an unknown, expired or revoked token.
 */
export const authenticate =
  (authorizer: Authorizer): Stage =>
  (operation) => {
    if (!needsSession(operation.rule)) return undefined;
    return async (req, res, next) => {
      const context = contextOf(res);
      const caller = await authorizer.authenticate(req, operation);
      context.session = caller.session;
      context.token = caller.token;
      next();
    };
  };
