import type { AgentRoleService } from './roles-service.js';
import { type AdmissionService, runQuery } from '../policies/admission.js';
import type { OperationModule } from '../http/operation-table.js';
import { roleProjection, roleRowOf, toAgentRoleRow } from './projection.js';

/** Agent roles, the skills bound to them, and the model picker: organization administration. */
export function agentRoleOperations(agentRoles: AgentRoleService, admission: AdmissionService) {
  return {
    listAgentRoles: {
      rule: 'orgAdmin',
      handle: async ({ access, query }) => {
        const roles = await agentRoles.list(access.organization.id);
        const { items, nextCursor } = roleProjection.pageOf(roles.map(roleRowOf), query);
        return { roles: items, nextCursor };
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
      async handle({ access, query }) {
        const run = runQuery(query);
        if (!run) return { models: agentRoles.models() };
        // Admission's own answer for each model: the picker and the check cannot disagree.
        return { models: await admission.picker(access.organization.id, run.projectId, run.initiatedBy) };
      },
    },
  } satisfies OperationModule;
}
