import { needsOrganization } from '../../auth/rules.js';
import { deletingConflict } from '../../orgs/lifecycle.js';
import { carriesBody, contextOf, established, type Stage } from './stage.js';

/**
 * The writes an organization being deleted still takes: its restore, and nothing else. Leaving
 * or changing anything would change what a restore brings back.
 */
const WHILE_DELETING = new Set(['restoreOrganization']);

/**
 * 409 `organization_deleting` for every write to an organization being deleted: the one place
 * that makes it read-only, so no operation can forget to, and no handler checks it again.
 */
export const refuseWritesWhileDeleting: Stage = (operation) => {
  if (!needsOrganization(operation.rule) || !carriesBody(operation.method)) return undefined;
  if (WHILE_DELETING.has(operation.operationId)) return undefined;
  return (_req, res, next) => {
    const { organization } = established(contextOf(res).access, 'the organization');
    if (organization.status === 'DELETING') throw deletingConflict(organization);
    next();
  };
};
