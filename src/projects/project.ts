import { conflict } from '../errors/api-error.js';

/** A project row as authorization and handlers need it. */
export interface ProjectRecord {
  id: string;
  organization_id: string;
  folder_id: string | null;
  name: string;
  workspace_dir: string;
  created_by: string | null;
  created_at: string;
  archived_at: string | null;
}

/** Archived projects stay readable but take no further change. */
export function requireLive(project: ProjectRecord): void {
  if (project.archived_at) throw conflict('project_archived', 'The project is archived and cannot be changed.');
}
