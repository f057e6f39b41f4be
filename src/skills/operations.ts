import type { Services } from '../app/services.js';
import type { OperationModule } from '../http/operation-table.js';
import { pageOf } from '../shared/pagination.js';
import { toAgentSkillRow } from './mapper.js';
import { skillOrder } from './store.js';

/** Agent skills: list, read back, install or replace, relabel and disable. Org admins only. */
export function skillOperations({ skills }: Services) {
  return {
    listAgentSkills: {
      rule: 'orgAdmin',
      handle: async ({ access, query }) => {
        const { items, nextCursor } = pageOf(await skills.list(access.organization.id), query, skillOrder);
        return { skills: items.map(toAgentSkillRow), nextCursor };
      },
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
  } satisfies OperationModule;
}
