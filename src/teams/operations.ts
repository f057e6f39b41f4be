import type { TeamService } from './service.js';
import type { OperationModule } from '../http/operation-table.js';
import { teamMemberProjection, teamProjection, teamProjectProjection } from './projection.js';

const toTeamRow = teamProjection.toApi;
const toTeamMemberRow = teamMemberProjection.toApi;

/** Teams and their members. */
export function teamOperations(teams: TeamService) {
  return {
    listTeams: {
      rule: 'orgAdmin',
      handle: async ({ access, query }) => {
        const { items, nextCursor } = teamProjection.pageOf(await teams.list(access.organization.id), query);
        return { teams: items, nextCursor };
      },
    },

    createTeam: {
      rule: 'orgAdmin',
      status: 201,
      handle: async ({ access, body }) => toTeamRow(await teams.create(access.organization.id, body)),
    },

    updateTeam: {
      rule: 'orgAdmin',
      handle: async ({ access, params, body }) =>
        toTeamRow(await teams.update(access.organization.id, params.teamId, body)),
    },

    archiveTeam: {
      rule: 'orgAdmin',
      async handle({ access, params }) {
        await teams.archive(access.organization.id, params.teamId);
        return { archived: true, teamId: params.teamId };
      },
    },

    listTeamMembers: {
      rule: 'orgAdmin',
      handle: async ({ access, params, query }) => {
        const { items, nextCursor } = teamMemberProjection.pageOf(
          await teams.listMembers(access.organization.id, params.teamId),
          query,
        );
        return { members: items, nextCursor };
      },
    },

    listTeamProjects: {
      rule: 'orgAdmin',
      handle: async ({ access, params, query }) => {
        const { items, nextCursor } = teamProjectProjection.pageOf(
          await teams.listProjects(access.organization.id, params.teamId),
          query,
        );
        return { projects: items, nextCursor };
      },
    },

    addTeamMember: {
      rule: 'orgAdmin',
      status: 201,
      handle: async ({ access, params, body }) =>
        toTeamMemberRow(await teams.addMember(access.organization.id, params.teamId, body)),
    },

    revokeTeamMember: {
      rule: 'orgAdmin',
      async handle({ access, params }) {
        await teams.revokeMember(access.organization.id, params.teamId, params.userId);
        return { revoked: true, teamId: params.teamId, userId: params.userId };
      },
    },
  } satisfies OperationModule;
}
