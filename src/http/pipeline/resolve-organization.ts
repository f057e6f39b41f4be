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
        const prefix = `/api/org/${slug}`;
        res.redirect(308, `/api/org/${resolved.renamedTo}${req.originalUrl.slice(prefix.length)}`);
        return;
      }
      context.access = resolved;
      next();
    };
  };
