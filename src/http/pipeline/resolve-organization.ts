import type { Authorizer } from '../../auth/authorize.js';
import { needsOrganization } from '../../auth/rules.js';
import { contextOf, established, type Stage } from './stage.js';

/** 404 `org_not_found` unless the caller is an active member of the organization in the path. */
export const resolveOrganization =
  (authorizer: Authorizer): Stage =>
  ({ rule }) => {
    if (!needsOrganization(rule)) return undefined;
    return async (req, res, next) => {
      const context = contextOf(res);
      const session = established(context.session, 'the session');
      context.access = await authorizer.resolveOrganization(
        { session, token: context.token },
        String(req.params.orgSlug),
      );
      next();
    };
  };
