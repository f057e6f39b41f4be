import type { Authorizer } from '../../auth/authorize.js';
import { isOrgRoleRule } from '../../auth/rules.js';
import { contextOf, established, type Stage } from './stage.js';

/**
 * 403 when the caller's org role does not admit the operation (`orgOwner`, `orgAdmin`, `projectCreator`).
 * It runs before validation, so a caller learns nothing about an operation it may not call.
 */
export const enforceOrgRole =
  (authorizer: Authorizer): Stage =>
  (operation) => {
    if (!isOrgRoleRule(operation.rule)) return undefined;
    return async (_req, res, next) => {
      const context = contextOf(res);
      await authorizer.checkOrgRole(
        operation.rule,
        operation,
        established(context.access, 'the organization'),
        context.token,
      );
      next();
    };
  };
