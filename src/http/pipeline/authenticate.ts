import type { Authorizer } from '../../auth/authorize.js';
import { needsSession } from '../../auth/rules.js';
import { contextOf, type Stage } from './stage.js';

/** 401 `unauthenticated` unless the request carries a valid session (every rule but `public`). */
export const authenticate =
  (authorizer: Authorizer): Stage =>
  ({ rule }) => {
    if (!needsSession(rule)) return undefined;
    return async (req, res, next) => {
      contextOf(res).session = await authorizer.authenticate(req);
      next();
    };
  };
