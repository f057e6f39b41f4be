import type { OperationModule } from '../http/operation-table.js';
import type { OrganizationLifecycle } from './lifecycle.js';
import { organizationResponseProjection } from './projection.js';
import type { OrganizationRecord, OrgAccess } from './store.js';

/** The organization as the caller now sees it, after a change of the organization itself. */
const answerOf = (access: OrgAccess, organization: OrganizationRecord) =>
  organizationResponseProjection.toApi({ ...access, organization });

/** The organization's life: rename, ownership transfers, deletion and restore. */
export function organizationLifecycleOperations(lifecycle: OrganizationLifecycle) {
  return {
    renameOrganization: {
      rule: 'orgOwner',
      handle: async ({ access, body }) => answerOf(access, await lifecycle.rename(access.organization.id, body)),
    },

    deleteOrganization: {
      rule: 'orgOwner',
      handle: async ({ access }) => answerOf(access, await lifecycle.delete(access.organization.id)),
    },

    restoreOrganization: {
      rule: 'orgOwner',
      handle: async ({ access }) => answerOf(access, await lifecycle.restore(access.organization.id)),
    },

    listOwnershipTransfers: {
      rule: 'member',
      handle: async ({ access }) => ({ transfers: await lifecycle.listTransfers(access.organization.id) }),
    },

    createOwnershipTransfer: {
      rule: 'orgOwner',
      status: 201,
      handle: ({ access, session, body }) => lifecycle.offer(access.organization.id, session.user.id, body.toUserId),
    },

    acceptOwnershipTransfer: {
      rule: 'member',
      handle: ({ access, session, params }) =>
        lifecycle.accept(access.organization.id, params.transferId, session.user.id),
    },

    cancelOwnershipTransfer: {
      rule: 'member',
      handle: ({ access, session, params }) => lifecycle.cancel(access, params.transferId, session.user.id),
    },
  } satisfies OperationModule;
}
