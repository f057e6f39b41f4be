import type { Authorizer } from '../../auth/authorize.js';
import { isProjectRule } from '../../auth/rules.js';
import { contextOf, established, type Stage } from './stage.js';

/**
 * 404 `project_not_found` / 403 for the project in the path under the `projectRead` and
 * `projectManage` rules. It runs after validation, so the project id it looks up is well formed.
 */
export const guardProject =
  (authorizer: Authorizer): Stage =>
  (operation) => {
    const { rule } = operation;
    if (!isProjectRule(rule)) return undefined;
    return async (req, res, next) => {
      const context = contextOf(res);
      const access = established(context.access, 'the organization');
      const session = established(context.session, 'the session');
      context.project = await authorizer.checkProject(rule, operation, access, session, String(req.params.projectId));
      next();
    };
  };
