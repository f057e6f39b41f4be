import type { SkillService } from './service.js';
import type { OperationModule } from '../http/operation-table.js';
import { installedSkillProjection, skillProjection, skillRowOf, toSkillFileEntry } from './projection.js';

/** Agent skills: list, read back, install or replace, relabel and disable. Org admins only. */
export function skillOperations(skills: SkillService) {
  return {
    listAgentSkills: {
      rule: 'orgAdmin',
      handle: async ({ access, query }) => {
        const rows = (await skills.list(access.organization.id)).map(skillRowOf);
        const { items, nextCursor } = skillProjection.pageOf(rows, query);
        return { skills: items, nextCursor };
      },
    },

    getAgentSkillFiles: {
      rule: 'orgAdmin',
      handle: async ({ access, params }) => ({
        files: (await skills.files(access.organization.id, params.name)).map(toSkillFileEntry),
      }),
    },

    installAgentSkill: {
      rule: 'orgAdmin',
      handle: async ({ access, params, body }) =>
        installedSkillProjection.toApi(await skills.install(access.organization.id, params.name, body)),
    },

    updateAgentSkill: {
      rule: 'orgAdmin',
      handle: ({ access, params, body }) => skills.update(access.organization.id, params.name, body),
    },
  } satisfies OperationModule;
}
