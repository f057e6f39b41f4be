import type { Schema } from '../api/types.js';
import { type Fields, type OrderKey, projection } from '../shared/projection.js';
import type { FolderRecord } from './store.js';

/** A folder's own fields, as every folder tree shows them (the explorer and the library add counts). */
export const folderFields = {
  id: 'id',
  name: 'name',
  parentId: 'parent_id',
  sortKey: 'sort_key',
} as const satisfies Fields<FolderRecord, Schema<'FolderRow'>>;

/** How every folder tree lists its folders: by sortKey, then name, then id, so the order is total. */
export const FOLDER_ORDER = [
  { column: 'sort_key', by: 'codeUnits' },
  { column: 'name', by: 'name' },
  { column: 'id', by: 'codeUnits' },
] as const satisfies readonly OrderKey<FolderRecord>[];

/** A folder as the API shows it after a create or change. */
export const folderProjection = projection<FolderRecord, Schema<'FolderRow'>>()({
  fields: folderFields,
  order: FOLDER_ORDER,
});
