import type { OperationModule, OrgContext } from '../http/operation-table.js';
import type { OperationId, Schema } from '../api/types.js';
import { projectDetailProjection } from './projection.js';
import { sessionProjection } from './session-projection.js';
import type { ProjectRecord } from './project.js';
import { viewerFrom, type ProjectService } from './service.js';
import { forceReleaseCommand } from './managers.js';

/** Projects: creation by members where allowed, reads under the project rules, admin mutations. */
export function projectOperations(projects: ProjectService) {
  /** Runs an org-admin mutation on a project of the addressed organization and returns its fresh detail. */
  async function mutate<O extends OperationId>(
    { access, session, params }: OrgContext<O> & { params: { projectId: string } },
    change: (project: ProjectRecord) => Promise<void>,
  ): Promise<Schema<'ProjectDetail'>> {
    const project = await projects.requireInOrg(access.organization.id, params.projectId);
    await change(project);
    return projectDetailProjection.toApi(
      await projects.detail(project.id, await projects.viewer(access, session.user.id, project.id)),
    );
  }

  return {
    createProject: {
      rule: 'projectCreator',
      status: 201,
      async handle({ access, session, body }) {
        const project = await projects.create(access.organization.id, session.user.id, body);
        return { id: project.id, name: project.name };
      },
    },

    listProjects: {
      rule: 'orgAdmin',
      async handle({ access, query }) {
        const states = await projects.managedStates(access.organization.id);
        const shown = query.unmanaged === 'true' ? states.filter((project) => !project.managed) : states;
        return {
          projects: shown.map((project) => ({
            id: project.id,
            name: project.name,
            folderId: project.folder_id,
            managed: project.managed,
            forceReleaseCommand: project.managed ? null : forceReleaseCommand(access.organization.slug, project.id),
          })),
        };
      },
    },

    getProject: {
      rule: 'projectRead',
      handle: async ({ project }) =>
        projectDetailProjection.toApi(await projects.detail(project.project.id, viewerFrom(project))),
    },

    renameProject: {
      rule: 'orgAdmin',
      handle: (ctx) => mutate(ctx, (project) => projects.rename(project, ctx.body.name)),
    },

    moveProject: {
      rule: 'orgAdmin',
      handle: (ctx) => mutate(ctx, (project) => projects.move(project, ctx.body.folderId)),
    },

    archiveProject: {
      rule: 'orgAdmin',
      handle: (ctx) => mutate(ctx, (project) => projects.archive(project)),
    },

    archiveProjectBinding: {
      rule: 'orgAdmin',
      async handle({ access, params }) {
        await projects.archiveBinding(await projects.requireInOrg(access.organization.id, params.projectId));
        return { archived: true, projectId: params.projectId };
      },
    },

    listProjectSessions: {
      rule: 'projectRead',
      async handle({ project, query }) {
        const { items, nextCursor } = await projects.listSessions(project.project.id, query.limit ?? 50, query.cursor);
        return { sessions: items.map(sessionProjection.toApi), nextCursor };
      },
    },
  } satisfies OperationModule;
}
