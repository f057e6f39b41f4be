import type { Schema } from '../http/operation-types.js';
import type { FolderRecord } from './store.js';

/** A folder as the API shows it after a create or change. */
export const toFolderRow = (f: FolderRecord): Schema<'FolderRow'> => ({
  id: f.id,
  name: f.name,
  parentId: f.parent_id,
  sortKey: f.sort_key,
});
