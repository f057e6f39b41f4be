import type { Authorizer } from '../../auth/authorize.js';
import { needsOrganization } from '../../auth/rules.js';
import { contextOf, type Stage } from './stage.js';

/**
 * 403 `token_scope_required` when an API token calls an operation outside its scopes, or one
 * no token may call. It sits with the org-role rule, before validation: a token learns nothing
 * about an operation it may not call. Session callers pass straight through.
 */
export const enforceTokenScope =
  (authorizer: Authorizer): Stage =>
  (operation) => {
    if (!needsOrganization(operation.rule)) return undefined;
    return (_req, res, next) => {
      const { token } = contextOf(res);
      if (token) authorizer.checkTokenScope(token, operation);
      next();
    };
  };
