import type { Services } from '../app/services.js';
import type { OperationModule } from '../http/operation-table.js';
import { pageOf } from '../shared/pagination.js';
import { toAgentRoleRow } from './mapper.js';
import { roleOrder } from './roles-store.js';

/** Agent roles, the skills bound to them, and the model picker: organization administration. */
export function agentRoleOperations({ agentRoles }: Services) {
  return {
    listAgentRoles: {
      rule: 'orgAdmin',
      handle: async ({ access, query }) => {
        const { items, nextCursor } = pageOf(await agentRoles.list(access.organization.id), query, roleOrder);
        return { roles: items.map(toAgentRoleRow), nextCursor };
      },
    },

    putAgentRole: {
      rule: 'orgAdmin',
      handle: async ({ access, params, body }) =>
        toAgentRoleRow(await agentRoles.put(access.organization.id, params.roleId, body)),
    },

    updateAgentRole: {
      rule: 'orgAdmin',
      handle: async ({ access, params, body }) =>
        toAgentRoleRow(await agentRoles.setDisabled(access.organization.id, params.roleId, body.disabled)),
    },

    putAgentRoleSkills: {
      rule: 'orgAdmin',
      handle: async ({ access, params, body }) => ({
        skillNames: await agentRoles.putSkills(access.organization.id, params.roleId, body.skillNames),
      }),
    },

    listAgentModels: {
      rule: 'orgAdmin',
      handle: async () => ({ models: agentRoles.models() }),
    },
  } satisfies OperationModule;
}
