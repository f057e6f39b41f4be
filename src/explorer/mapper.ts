import type { Schema } from '../http/operation-types.js';
import type { ExplorerFolderRecord, ExplorerProjectRecord } from './store.js';

type ExplorerFolder = Schema<'ExplorerFolder'>;
type ExplorerProject = Schema<'ExplorerProject'>;

/** A folder of the tree with its counts. */
export const toExplorerFolder = (f: ExplorerFolderRecord): ExplorerFolder => ({
  id: f.id,
  name: f.name,
  parentId: f.parent_id,
  sortKey: f.sort_key,
  projectCount: f.project_count,
  childFolderCount: f.child_folder_count,
});

export const toExplorerProject = (p: ExplorerProjectRecord): ExplorerProject => ({
  id: p.id,
  name: p.name,
  folderId: p.folder_id,
  createdAt: p.created_at,
  binding:
    p.binding_chat_id && p.binding_created_at ? { chatId: p.binding_chat_id, createdAt: p.binding_created_at } : null,
});
