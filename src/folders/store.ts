import type { Executor } from '../db/unit-of-work.js';
import { FolderTreeStore, type FolderRecord } from '../folder-tree/store.js';

export type { FolderRecord };

/** The project folder tree of each organization (`folders`); the tree's shared SQL is FolderTreeStore. */
export class FolderStore extends FolderTreeStore {
  constructor() {
    super('folders');
  }

  /**
   * Whether the folder still holds an active project: one search of the organization's active
   * projects by folder (projects_active_org_folder_idx), where `folder_id` alone read that index
   * for every organization.
   */
  async hasActiveProject(db: Executor, organizationId: string, folderId: string): Promise<boolean> {
    const project = await db('projects')
      .where({ organization_id: organizationId, folder_id: folderId })
      .whereNull('archived_at')
      .first('id');
    return project !== undefined;
  }
}
