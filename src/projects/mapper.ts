import type { Schema } from '../api/types.js';
import type { TeamAccessRecord } from '../grants/store.js';
import type { ProjectDetailRecord } from './store.js';

/** Who is looking at a project detail, for its `actor…` flags. */
export interface ProjectViewer {
  isOrgAdmin: boolean;
  canManage: boolean;
}

/** The API shapes of a project, its agent sessions and its team access, from their rows. */
export const toProjectDetail = (d: ProjectDetailRecord & ProjectViewer): Schema<'ProjectDetail'> => ({
  ...toProjectView(d),
  actorIsOrgAdmin: d.isOrgAdmin,
  actorCanManageProject: d.canManage,
});

/**
 * A project as the API shows it to anyone: its detail without the `actor…` flags, which belong
 * to whoever is looking (what the audit log records of a project).
 */
export const toProjectView = (d: ProjectDetailRecord): Schema<'ProjectDetail'> => ({
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
  binding: d.binding_chat_id && d.binding_created_at ? toProjectBinding(d.binding_chat_id, d.binding_created_at) : null,
});

/** A project's active chat binding as the project detail shows it. */
export const toProjectBinding = (chatId: string, createdAt: string): Schema<'ProjectBinding'> => ({
  chatId,
  createdAt,
});

export const toTeamAccessEntry = (r: TeamAccessRecord): Schema<'TeamAccessEntry'> => ({
  grantId: r.grant_id,
  projectId: r.project_id,
  organizationId: r.organization_id,
  teamId: r.team_id,
  teamSlug: r.team_slug,
  teamName: r.team_name,
  role: r.role,
});
