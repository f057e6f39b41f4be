import type { Authorizer } from '../../auth/authorize.js';
import { contextOf, established, type Stage } from './stage.js';

/**
 * 403 when the caller's org role does not admit the operation (`orgAdmin`, `projectCreator`).
 * It runs before validation, so a caller learns nothing about an operation it may not call.
 */
export const enforceOrgRole =
  (authorizer: Authorizer): Stage =>
  (operation) => {
    if (operation.rule !== 'orgAdmin' && operation.rule !== 'projectCreator') return undefined;
    return async (_req, res, next) => {
      await authorizer.checkOrgRole(operation.rule, operation, established(contextOf(res).access, 'the organization'));
      next();
    };
  };
