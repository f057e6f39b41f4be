import type { Services } from '../app/services.js';
import type { OperationModule } from '../http/operation-table.js';
import type { Schema } from '../http/operation-types.js';
import type { TeamAccessRecord } from './store.js';

const toTeamAccessEntry = (r: TeamAccessRecord): Schema<'TeamAccessEntry'> => ({
  grantId: r.grant_id,
  projectId: r.project_id,
  organizationId: r.organization_id,
  teamId: r.team_id,
  teamSlug: r.team_slug,
  teamName: r.team_name,
  role: r.role,
});

/** Per-project team access: read with the project, changed only with MANAGE. */
export function accessOperations({ projectAccess }: Services): OperationModule {
  return {
    listProjectTeamAccess: {
      rule: 'projectRead',
      handle: async ({ project }) => ({ access: (await projectAccess.listTeamAccess(project.project.id)).map(toTeamAccessEntry) }),
    },

    putProjectTeamAccess: {
      rule: 'projectManage',
      handle: async ({ project, body }) => toTeamAccessEntry(await projectAccess.putTeamAccess(project.project, body, body.role)),
    },

    deleteProjectTeamAccess: {
      rule: 'projectManage',
      status: 204,
      async handle({ project, params }) {
        await projectAccess.deleteTeamAccess(project.project, params.teamId);
        return undefined;
      },
    },
  };
}
