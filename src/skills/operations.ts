import type { Services } from '../app/services.js';
import type { OperationModule } from '../http/operation-table.js';

/** Agent skills: list, read back, install or replace, relabel and disable. Org admins only. */
export function skillOperations({ skills }: Services): OperationModule {
  return {
    listAgentSkills: {
      rule: 'orgAdmin',
      handle: async ({ access }) => ({ skills: await skills.list(access.organization.id) }),
    },

    getAgentSkillFiles: {
      rule: 'orgAdmin',
      handle: async ({ access, params }) => ({ files: await skills.files(access.organization.id, params.name) }),
    },

    installAgentSkill: {
      rule: 'orgAdmin',
      handle: ({ access, params, body }) => skills.install(access.organization.id, params.name, body),
    },

    updateAgentSkill: {
      rule: 'orgAdmin',
      handle: ({ access, params, body }) => skills.update(access.organization.id, params.name, body),
    },
  };
}
