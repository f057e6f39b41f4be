import type { Schemas } from './api-client';
import { buildFolderTree, type FolderTree, type LeafShape } from './folder-tree';

export type Folder = Schemas['ExplorerFolder'];
export type Project = Schemas['ExplorerProject'];
export type ProjectTree = FolderTree<Folder, Project>;

/** How the explorer's projects read as leaves of the folder tree. */
const PROJECT: LeafShape<Project> = {
  folderOf: (p) => p.folderId,
  nameOf: (p) => p.name,
  keyOf: (p) => p.id,
};

/** The organization's folders and projects, as the explorer's one answer lists them (sortKey, then name). */
export const buildProjectTree = (data: Schemas['ExplorerData'] | undefined): ProjectTree =>
  buildFolderTree(data?.folders, data?.projects ?? [], PROJECT);

/** How the top level reads where a folder is chosen. */
export const PROJECTS_TOP_LEVEL = '/ (top level)';
