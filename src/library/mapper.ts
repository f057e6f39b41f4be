import type { Schema } from '../http/operation-types.js';
import { folderOrder } from '../folder-tree/order.js';
import { toFolderRow } from '../folders/mapper.js';
import type { LibraryFolderWithCounts } from './store.js';

type AgentLibraryFolder = Schema<'AgentLibraryFolder'>;

/** A folder of the library with the roles and skills in it; counts come back as numbers or bigint strings. */
export const toAgentLibraryFolder = (f: LibraryFolderWithCounts): AgentLibraryFolder => ({
  ...toFolderRow(f),
  roleCount: Number(f.role_count),
  skillCount: Number(f.skill_count),
});

/** The whole library, folders in tree order. */
export const toAgentLibrary = (folders: LibraryFolderWithCounts[]): Schema<'AgentLibrary'> => ({
  folders: folderOrder.sorted(folders.map(toAgentLibraryFolder)),
});
