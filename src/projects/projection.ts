import type { Schema } from '../api/types.js';
import type { TeamAccessRecord } from '../grants/store.js';
import { type Fields, projection } from '../shared/projection.js';
import type { BindingRecord, ProjectDetailRecord } from './store.js';

/** Who is looking at a project detail, for its `actor…` flags. */
export interface ProjectViewer {
  isOrgAdmin: boolean;
  canManage: boolean;
}

type ProjectDetail = Schema<'ProjectDetail'>;
/** A project as anyone sees it: the `actor…` flags belong to whoever is looking. */
type ProjectView = Omit<ProjectDetail, 'actorIsOrgAdmin' | 'actorCanManageProject'>;

/** The detail's fields over its row; the folder, creator and binding are null when their joined row is absent. */
const projectViewFields: Fields<ProjectDetailRecord, ProjectView> = {
  id: 'id',
  name: 'name',
  folderId: 'folder_id',
  folder: { object: { id: 'folder_id', name: 'folder_name' }, when: 'folder_name' },
  workspaceDir: 'workspace_dir',
  createdAt: 'created_at',
  archivedAt: 'archived_at',
  createdBy: {
    object: { id: 'created_by', displayName: 'creator_display_name', imOpenId: 'creator_im_open_id' },
    when: 'creator_im_open_id',
  },
  binding: { object: { chatId: 'binding_chat_id', createdAt: 'binding_created_at' }, when: 'binding_chat_id' },
};

/** A project as the API shows it to anyone (what the audit log records of a project). */
export const projectViewProjection = projection<ProjectDetailRecord, ProjectView>()({ fields: projectViewFields });

/** A project's detail as its viewer sees it, with whether they administer the organization and manage the project. */
export const projectDetailProjection = projection<ProjectDetailRecord & ProjectViewer, ProjectDetail>()({
  fields: {
    ...projectViewFields,
    // Where the project lives on the host is the operator's and the org admins' concern alone.
    workspaceDir: { from: (row) => (row.isOrgAdmin ? row.workspace_dir : null) },
    actorIsOrgAdmin: 'isOrgAdmin',
    actorCanManageProject: 'canManage',
  },
});

/** A project's active chat binding, as its audit events record it. */
export const bindingProjection = projection<BindingRecord, Schema<'ProjectBinding'>>()({
  fields: { chatId: 'chat_id', createdAt: 'created_at' },
});

/** A team's grant on the project; by team name as people read it, then slug (unique among active teams). */
export const teamAccessProjection = projection<TeamAccessRecord, Schema<'TeamAccessEntry'>>()({
  fields: {
    grantId: 'grant_id',
    projectId: 'project_id',
    organizationId: 'organization_id',
    teamId: 'team_id',
    teamSlug: 'team_slug',
    teamName: 'team_name',
    role: 'role',
  },
  order: [
    { column: 'team_name', by: 'name' },
    { column: 'team_slug', by: 'codeUnits' },
  ],
});
