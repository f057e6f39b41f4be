import { TOP_LEVEL } from '../../../components/folder-move-dialog';
import type { Schemas } from '../../../lib/api-client';

export type LibraryFolder = Schemas['AgentLibraryFolder'];
export type Role = Schemas['AgentRoleRow'];
export type Skill = Schemas['AgentSkillRow'];

export type Library = {
  folders: Map<string, LibraryFolder>;
  childFolders: Map<string | null, LibraryFolder[]>;
  roles: Map<string | null, Role[]>;
  skills: Map<string | null, Skill[]>;
};

function push<T>(map: Map<string | null, T[]>, key: string | null, value: T) {
  const list = map.get(key) ?? [];
  list.push(value);
  map.set(key, list);
}

/**
 * Indexes the library's flat lists by folder, keeping the server's orders (folders by sortKey,
 * roles by sortOrder, skills by name). A role or skill naming a folder the list does not hold
 * (archived between two reads) shows at the root rather than nowhere.
 */
export function buildLibrary(
  folders: readonly LibraryFolder[] | undefined,
  roles: readonly Role[] | undefined,
  skills: readonly Skill[] | undefined,
): Library {
  const lib: Library = { folders: new Map(), childFolders: new Map(), roles: new Map(), skills: new Map() };
  for (const f of folders ?? []) lib.folders.set(f.id, f);
  for (const f of folders ?? [])
    push(lib.childFolders, f.parentId !== null && lib.folders.has(f.parentId) ? f.parentId : null, f);
  const place = (id: string | null) => (id !== null && lib.folders.has(id) ? id : null);
  for (const r of roles ?? []) push(lib.roles, place(r.libraryFolderId), r);
  for (const s of skills ?? []) push(lib.skills, place(s.libraryFolderId), s);
  return lib;
}

/** `Support / Billing` for a folder id; the root is `/`. */
export function folderPath(lib: Library, folderId: string | null): string {
  const names: string[] = [];
  const seen = new Set<string>();
  for (let id = folderId; id !== null && !seen.has(id); ) {
    seen.add(id);
    const f = lib.folders.get(id);
    if (!f) break;
    names.unshift(f.name);
    id = f.parentId;
  }
  return names.length ? names.join(' / ') : '/';
}

/** A folder and everything under it: where it cannot be moved to (409 `folder_cycle`). */
export function subtreeIds(lib: Library, folderId: string): Set<string> {
  const ids = new Set<string>([folderId]);
  const stack = [folderId];
  while (stack.length) {
    for (const child of lib.childFolders.get(stack.pop()!) ?? []) {
      if (!ids.has(child.id)) {
        ids.add(child.id);
        stack.push(child.id);
      }
    }
  }
  return ids;
}

/** The library root as a choice: the value the move dialog reads as "no folder". */
export const ROOT = TOP_LEVEL;

/** Choices for "which folder": the root first, then every folder by its path, minus `excluded`. */
export function folderOptions(lib: Library, excluded: ReadonlySet<string> = new Set()) {
  const folders = [...lib.folders.values()]
    .filter((f) => !excluded.has(f.id))
    .map((f) => ({ value: f.id, label: folderPath(lib, f.id) }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return [{ value: ROOT, label: '/ (library root)' }, ...folders];
}

export type Row =
  | { kind: 'folder'; folder: LibraryFolder; depth: number }
  | { kind: 'role'; role: Role; depth: number }
  | { kind: 'skill'; skill: Skill; depth: number };

/** The rows on screen: an expanded folder shows its subfolders, then its roles, then its skills. */
export function visibleRows(lib: Library, expanded: ReadonlySet<string>): Row[] {
  const rows: Row[] = [];
  const walk = (parentId: string | null, depth: number) => {
    for (const folder of lib.childFolders.get(parentId) ?? []) {
      rows.push({ kind: 'folder', folder, depth });
      if (expanded.has(folder.id)) walk(folder.id, depth + 1);
    }
    for (const role of lib.roles.get(parentId) ?? []) rows.push({ kind: 'role', role, depth });
    for (const skill of lib.skills.get(parentId) ?? []) rows.push({ kind: 'skill', skill, depth });
  };
  walk(null, 0);
  return rows;
}
