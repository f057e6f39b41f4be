import type { TeamAccessService } from './team-access.js';
import type { OperationModule } from '../http/operation-table.js';
import { teamAccessProjection } from './projection.js';

const toTeamAccessEntry = teamAccessProjection.toApi;
import { projectAccessProjection } from './access-projection.js';

/** Per-project team access: read with the project, changed only with MANAGE. */
export function teamAccessOperations(teamAccess: TeamAccessService) {
  return {
    listProjectTeamAccess: {
      rule: 'projectRead',
      handle: async ({ project }) => {
        const { items } = teamAccessProjection.pageOf(await teamAccess.list(project.project.id), {});
        return { access: items };
      },
    },

    getProjectAccess: {
      rule: 'projectRead',
      handle: async ({ project, query }) => {
        const { items, nextCursor } = projectAccessProjection.pageOf(
          await teamAccess.whoCanOpen(project.project),
          query,
        );
        return { access: items, nextCursor };
      },
    },

    putProjectTeamAccess: {
      rule: 'projectManage',
      handle: async ({ project, body }) => toTeamAccessEntry(await teamAccess.put(project.project, body, body.role)),
    },

    deleteProjectTeamAccess: {
      rule: 'projectManage',
      status: 204,
      async handle({ project, params }) {
        await teamAccess.remove(project.project, params.teamId);
        return undefined;
      },
    },
  } satisfies OperationModule;
}
