import type { Schemas } from '../../../lib/api-client';

export type Folder = Schemas['ExplorerFolder'];
export type Project = Schemas['ExplorerProject'];

export type Tree = {
  folders: Map<string, Folder>;
  childFolders: Map<string | null, Folder[]>;
  childProjects: Map<string | null, Project[]>;
};

/** Indexes the explorer's flat lists by parent, keeping the server's order (sortKey, then name). */
export function buildTree(data: Schemas['ExplorerData'] | undefined): Tree {
  const tree: Tree = { folders: new Map(), childFolders: new Map(), childProjects: new Map() };
  for (const f of data?.folders ?? []) {
    tree.folders.set(f.id, f);
    const list = tree.childFolders.get(f.parentId) ?? [];
    list.push(f);
    tree.childFolders.set(f.parentId, list);
  }
  for (const p of data?.projects ?? []) {
    const list = tree.childProjects.get(p.folderId) ?? [];
    list.push(p);
    tree.childProjects.set(p.folderId, list);
  }
  return tree;
}

/** `Engineering / Backend` for a folder id; the top level is `/`. */
export function folderPath(tree: Tree, folderId: string | null): string {
  const names: string[] = [];
  const seen = new Set<string>();
  for (let id = folderId; id !== null && !seen.has(id); ) {
    seen.add(id);
    const f = tree.folders.get(id);
    if (!f) break;
    names.unshift(f.name);
    id = f.parentId;
  }
  return names.length ? names.join(' / ') : '/';
}

/** A folder and everything under it: where it cannot be moved to. */
export function subtreeIds(tree: Tree, folderId: string): Set<string> {
  const ids = new Set<string>([folderId]);
  const stack = [folderId];
  while (stack.length) {
    for (const child of tree.childFolders.get(stack.pop()!) ?? []) {
      if (!ids.has(child.id)) {
        ids.add(child.id);
        stack.push(child.id);
      }
    }
  }
  return ids;
}

export type Row =
  | { kind: 'folder'; folder: Folder; depth: number }
  | { kind: 'project'; project: Project; depth: number };

/** The rows on screen: expanded folders show their subfolders, then their projects. */
export function visibleRows(tree: Tree, expanded: ReadonlySet<string>): Row[] {
  const rows: Row[] = [];
  const walk = (parentId: string | null, depth: number) => {
    for (const folder of tree.childFolders.get(parentId) ?? []) {
      rows.push({ kind: 'folder', folder, depth });
      if (expanded.has(folder.id)) walk(folder.id, depth + 1);
    }
    for (const project of tree.childProjects.get(parentId) ?? []) rows.push({ kind: 'project', project, depth });
  };
  walk(null, 0);
  return rows;
}

/** Search: every folder and project whose name matches, with its path. */
export function matchingRows(data: Schemas['ExplorerData'] | undefined, needle: string): Row[] {
  const n = needle.toLowerCase();
  const rows: Row[] = [];
  for (const folder of data?.folders ?? [])
    if (folder.name.toLowerCase().includes(n)) rows.push({ kind: 'folder', folder, depth: 0 });
  for (const project of data?.projects ?? [])
    if (project.name.toLowerCase().includes(n)) rows.push({ kind: 'project', project, depth: 0 });
  return rows;
}
