import type { Authorizer } from '../../auth/authorize.js';
import { needsOrganization } from '../../auth/rules.js';
import { contextOf, established, type Stage } from './stage.js';

/**
 * 404 `org_not_found` unless the caller is an active member of the organization in the path;
 * 308 to the same path under the new slug when the slug is one their organization gave up by a
 * rename less than 30 days ago (a 308 keeps the method and body, so writes follow it too).
 */
export const resolveOrganization =
  (authorizer: Authorizer): Stage =>
  ({ rule }) => {
    if (!needsOrganization(rule)) return undefined;
    return async (req, res, next) => {
      const context = contextOf(res);
      const session = established(context.session, 'the session');
      const slug = String(req.params.orgSlug);
      const resolved = await authorizer.resolveOrganization({ session, token: context.token }, slug);
      if ('renamedTo' in resolved) {
        // The same path and query, only the slug segment replaced (routing ignores the case of the rest).
        res.redirect(308, req.originalUrl.replace(/^\/api\/org\/[^/?]+/i, `/api/org/${resolved.renamedTo}`));
        return;
      }
      context.access = resolved;
      next();
    };
  };
