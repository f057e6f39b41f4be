import { FOLDER_ORDER, folderFields } from '../folder-tree/projection.js';
import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';
import type { LibraryFolderWithCounts } from './store.js';

/** A folder of the library with the roles and skills in it; counts come back as numbers or bigint strings. */
export const libraryFolderProjection = projection<LibraryFolderWithCounts, Schema<'AgentLibraryFolder'>>()({
  fields: {
    ...folderFields,
    roleCount: { column: 'role_count', as: Number },
    skillCount: { column: 'skill_count', as: Number },
  },
  order: FOLDER_ORDER,
});
