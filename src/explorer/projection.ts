import { FOLDER_ORDER, folderFields } from '../folder-tree/projection.js';
import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';

/** A folder of the tree, with its active projects and active child folders counted. */
export interface ExplorerFolderRecord {
  id: string;
  parent_id: string | null;
  name: string;
  sort_key: string;
  project_count: number;
  child_folder_count: number;
}

/** An active project with the columns of its live chat binding, if any, joined beside it. */
export interface ExplorerProjectRecord {
  id: string;
  name: string;
  folder_id: string | null;
  created_at: string;
  binding_chat_id: string | null;
  binding_created_at: string | null;
}

export type ExplorerProject = Schema<'ExplorerProject'>;

export const explorerFolderProjection = projection<ExplorerFolderRecord, Schema<'ExplorerFolder'>>()({
  fields: { ...folderFields, projectCount: 'project_count', childFolderCount: 'child_folder_count' },
  order: FOLDER_ORDER,
});

/** A project as the explorer and a member's own list show it; by name as people read it, then id. */
export const explorerProjectProjection = projection<ExplorerProjectRecord, ExplorerProject>()({
  fields: {
    id: 'id',
    name: 'name',
    folderId: 'folder_id',
    createdAt: 'created_at',
    binding: { object: { chatId: 'binding_chat_id', createdAt: 'binding_created_at' }, when: 'binding_chat_id' },
  },
  order: [
    { column: 'name', by: 'name' },
    { column: 'id', by: 'codeUnits' },
  ],
});
