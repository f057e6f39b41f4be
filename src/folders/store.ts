import type { Executor } from '../db/unit-of-work.js';
import { FolderTreeStore, type FolderRecord } from '../folder-tree/store.js';

export type { FolderRecord };

export interface FolderWithCounts extends FolderRecord {
  project_count: number | string;
  child_folder_count: number | string;
}

/** The project folder tree of each organization (`folders`); the tree's shared SQL is FolderTreeStore. */
export class FolderStore extends FolderTreeStore {
  constructor() {
    super('folders');
  }

  /** Active folders with their active projects and child folders counted, in one statement. */
  async listActiveWithCounts(db: Executor, organizationId: string): Promise<FolderWithCounts[]> {
    const projectCounts = db('projects')
      .where('organization_id', organizationId)
      .whereNull('archived_at')
      .whereNotNull('folder_id')
      .groupBy('folder_id')
      .select('folder_id', db.raw('count(*) as n'));
    const childCounts = db('folders')
      .where('organization_id', organizationId)
      .whereNull('archived_at')
      .whereNotNull('parent_id')
      .groupBy('parent_id')
      .select('parent_id', db.raw('count(*) as n'));
    return db('folders as f')
      .leftJoin(projectCounts.as('pc'), 'pc.folder_id', 'f.id')
      .leftJoin(childCounts.as('cc'), 'cc.parent_id', 'f.id')
      .where('f.organization_id', organizationId)
      .whereNull('f.archived_at')
      .select('f.*', db.raw('coalesce(pc.n, 0) as project_count'), db.raw('coalesce(cc.n, 0) as child_folder_count'));
  }

  /** Whether the folder still holds an active project. */
  async hasActiveProject(db: Executor, folderId: string): Promise<boolean> {
    return (await db('projects').where({ folder_id: folderId }).whereNull('archived_at').first('id')) !== undefined;
  }
}
