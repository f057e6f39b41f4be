import type { Executor } from '../db/unit-of-work.js';
import { FolderTreeStore, type FolderRecord } from '../folder-tree/store.js';

export type { FolderRecord };

/** The project folder tree of each organization (`folders`); the tree's shared SQL is FolderTreeStore. */
export class FolderStore extends FolderTreeStore {
  constructor() {
    super('folders');
  }

  /** Whether the folder still holds an active project. */
  async hasActiveProject(db: Executor, folderId: string): Promise<boolean> {
    return (await db('projects').where({ folder_id: folderId }).whereNull('archived_at').first('id')) !== undefined;
  }
}
