import type { GrantRole } from './roles.js';

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

/** What the project rules established about the caller and the project in the path. */
export interface ProjectAccess {
  project: ProjectRecord;
  /** The strongest grant the caller holds through any principal, or null. */
  grant: GrantRole | null;
  isOrgAdmin: boolean;
}
