import type { Schema } from '../http/operation-types.js';
import type { ExplorerFolderRecord } from './store.js';

type ExplorerFolder = Schema<'ExplorerFolder'>;

/** A folder of the tree with its counts. */
export const toExplorerFolder = (f: ExplorerFolderRecord): ExplorerFolder => ({
  id: f.id,
  name: f.name,
  parentId: f.parent_id,
  sortKey: f.sort_key,
  projectCount: f.project_count,
  childFolderCount: f.child_folder_count,
});
