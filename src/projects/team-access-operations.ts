import type { TeamAccessService } from './team-access.js';
import type { TeamService } from '../teams/service.js';
import { teamNameProjection } from '../teams/projection.js';
import { grantAtLeast } from '../grants/roles.js';
import type { OperationModule } from '../http/operation-table.js';
import { teamAccessProjection } from './projection.js';

const toTeamAccessEntry = teamAccessProjection.toApi;
import { projectAccessProjection } from './access-projection.js';

/** Per-project team access: read with the project, changed only with MANAGE. */
export function teamAccessOperations(teamAccess: TeamAccessService, teams: TeamService) {
  return {
    listProjectTeamAccess: {
      rule: 'projectRead',
      handle: async ({ project }) => {
        const { items } = teamAccessProjection.pageOf(await teamAccess.list(project.project.id), {});
        // The teams a MANAGE holder may pick from, though listing teams is for org admins.
        const choices = grantAtLeast(project.grant, 'MANAGE') ? await teams.names(project.project.organization_id) : [];
        return { access: items, teamChoices: choices.map(teamNameProjection.toApi) };
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
