import type { Services } from '../app/services.js';
import type { OperationModule, OrgContext } from '../http/operation-table.js';
import type { OperationId, Schema } from '../http/operation-types.js';
import type { ProjectRecord } from '../access/project-access.js';
import { viewerFrom, type ProjectViewer } from './service.js';
import type { ProjectDetailRecord, SessionRecord } from './store.js';

export const toProjectDetail = (d: ProjectDetailRecord & ProjectViewer): Schema<'ProjectDetail'> => ({
  id: d.id,
  name: d.name,
  folderId: d.folder_id,
  folder: d.folder_id && d.folder_name !== null ? { id: d.folder_id, name: d.folder_name } : null,
  workspaceDir: d.workspace_dir,
  createdAt: d.created_at,
  archivedAt: d.archived_at,
  createdBy:
    d.created_by && d.creator_display_name !== null && d.creator_im_open_id !== null
      ? { id: d.created_by, displayName: d.creator_display_name, imOpenId: d.creator_im_open_id }
      : null,
  binding: d.binding_chat_id && d.binding_created_at ? { chatId: d.binding_chat_id, createdAt: d.binding_created_at } : null,
  actorIsOrgAdmin: d.isOrgAdmin,
  actorCanManageProject: d.canManage,
});

const toSessionSummary = (s: SessionRecord): Schema<'SessionSummary'> => ({
  id: s.id,
  provider: s.provider,
  roleId: s.role_id,
  model: s.model,
  title: s.title,
  runCount: Number(s.run_count),
  createdAt: s.created_at,
  updatedAt: s.updated_at,
});

/** Projects: creation by members where allowed, reads under the project rules, admin mutations. */
export function projectOperations({ projects }: Services): OperationModule {
  /** Runs an org-admin mutation on a project of the addressed organization and returns its fresh detail. */
  async function mutate<O extends OperationId>(
    { access, session, params }: OrgContext<O> & { params: { projectId: string } },
    change: (project: ProjectRecord) => Promise<void>,
  ): Promise<Schema<'ProjectDetail'>> {
    const project = await projects.requireInOrg(access.organization.id, params.projectId);
    await change(project);
    return toProjectDetail(await projects.detail(project.id, await projects.viewer(access, session.user.id, project.id)));
  }

  return {
    createProject: {
      rule: 'member',
      status: 201,
      async handle({ access, session, body }) {
        const project = await projects.create(access, session.user.id, body);
        return { id: project.id, name: project.name };
      },
    },

    getProject: {
      rule: 'projectRead',
      handle: async ({ project }) => toProjectDetail(await projects.detail(project.project.id, viewerFrom(project))),
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
      handle: async ({ project, query }) => ({ sessions: (await projects.listSessions(project.project.id, query.limit ?? 50)).map(toSessionSummary) }),
    },
  };
}
