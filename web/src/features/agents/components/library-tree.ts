import type { Schemas } from '../../../lib/api-client';
import { buildFolderTree, type FolderTree, type LeafShape } from '../../../lib/folder-tree';

export type LibraryFolder = Schemas['AgentLibraryFolder'];
export type Role = Schemas['AgentRoleRow'];
export type Skill = Schemas['AgentSkillRow'];
/** The library's leaves: its roles and its skills. */
export type LibraryLeaf = { kind: 'role'; role: Role } | { kind: 'skill'; skill: Skill };
export type Library = FolderTree<LibraryFolder, LibraryLeaf>;

const LEAF: LeafShape<LibraryLeaf> = {
  folderOf: (l) => (l.kind === 'role' ? l.role.libraryFolderId : l.skill.libraryFolderId),
  nameOf: (l) => (l.kind === 'role' ? l.role.label : l.skill.name),
  keyOf: (l) => (l.kind === 'role' ? `role:${l.role.roleId}` : `skill:${l.skill.name}`),
};

/**
 * The library's folders with, in each, its roles (by sortOrder, as the server lists them), then
 * its skills (by name).
 */
export const buildLibrary = (
  folders: readonly LibraryFolder[] | undefined,
  roles: readonly Role[] | undefined,
  skills: readonly Skill[] | undefined,
): Library =>
  buildFolderTree(
    folders,
    [
      ...(roles ?? []).map((role) => ({ kind: 'role' as const, role })),
      ...(skills ?? []).map((skill) => ({ kind: 'skill' as const, skill })),
    ],
    LEAF,
  );

/** How the library's top level reads where a folder is chosen. */
export const LIBRARY_ROOT = '/ (library root)';
