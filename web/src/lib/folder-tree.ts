/**
 * The folder trees of the app (the Projects explorer, the agent library): folders nested by
 * `parentId`, and leaves (projects; roles and skills) that each sit in one folder or at the top
 * level. The server sends flat lists in their order; this indexes them by parent, keeping it.
 */

/** What a tree needs of a folder. */
export type TreeFolder = { id: string; name: string; parentId: string | null; sortKey: string };

/** What a tree needs to know of its leaves. */
export type LeafShape<L> = {
  /** The folder a leaf is in; null at the top level. */
  folderOf(leaf: L): string | null;
  nameOf(leaf: L): string;
  /** Unique among the tree's leaves. */
  keyOf(leaf: L): string;
};

export type FolderTree<F extends TreeFolder, L> = {
  folders: Map<string, F>;
  childFolders: Map<string | null, F[]>;
  leaves: Map<string | null, L[]>;
  /** Every leaf, in the order given. */
  allLeaves: readonly L[];
  shape: LeafShape<L>;
};

/** A folder or a leaf of a tree; a row on screen is one at a depth. */
export type TreeEntry<F, L> = { kind: 'folder'; folder: F } | { kind: 'leaf'; leaf: L };
export type TreeRow<F, L> = TreeEntry<F, L> & { depth: number };

/** The option value that stands for the top level of a tree (no folder). */
export const TOP_LEVEL = '__root__';

function push<T>(map: Map<string | null, T[]>, key: string | null, value: T) {
  const list = map.get(key) ?? [];
  list.push(value);
  map.set(key, list);
}

/**
 * Indexes folders and leaves by parent, keeping the order given (the server's). A folder or leaf
 * naming a folder the list does not hold (archived between two reads of different lists) shows at
 * the top level rather than nowhere.
 */
export function buildFolderTree<F extends TreeFolder, L>(
  folders: readonly F[] | undefined,
  leaves: readonly L[],
  shape: LeafShape<L>,
): FolderTree<F, L> {
  const tree: FolderTree<F, L> = {
    folders: new Map(),
    childFolders: new Map(),
    leaves: new Map(),
    allLeaves: leaves,
    shape,
  };
  for (const f of folders ?? []) tree.folders.set(f.id, f);
  for (const f of folders ?? []) push(tree.childFolders, placed(tree, f.parentId), f);
  for (const leaf of leaves) push(tree.leaves, placed(tree, shape.folderOf(leaf)), leaf);
  return tree;
}

/** Where something naming `folderId` shows: there, or at the top level if the tree lacks that folder. */
function placed(tree: FolderTree<TreeFolder, unknown>, folderId: string | null) {
  return folderId !== null && tree.folders.has(folderId) ? folderId : null;
}

export const entryName = <F extends TreeFolder, L>(tree: FolderTree<F, L>, entry: TreeEntry<F, L>) =>
  entry.kind === 'folder' ? entry.folder.name : tree.shape.nameOf(entry.leaf);

/** The folder an entry shows in (null: the top level). */
export const entryParent = <F extends TreeFolder, L>(tree: FolderTree<F, L>, entry: TreeEntry<F, L>) =>
  placed(tree, entry.kind === 'folder' ? entry.folder.parentId : tree.shape.folderOf(entry.leaf));

/** Unique among a tree's folders and leaves. */
export const entryKey = <F extends TreeFolder, L>(tree: FolderTree<F, L>, entry: TreeEntry<F, L>) =>
  entry.kind === 'folder' ? `folder:${entry.folder.id}` : `leaf:${tree.shape.keyOf(entry.leaf)}`;

/** `Engineering / Backend` for a folder id; the top level is `/`. */
export function folderPath(tree: FolderTree<TreeFolder, unknown>, folderId: string | null): string {
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

/** A folder and everything under it: where it cannot be moved to (409 `folder_cycle`). */
export function subtreeIds(tree: FolderTree<TreeFolder, unknown>, folderId: string): Set<string> {
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

/** Choices for "which folder": the top level (as `rootLabel`), then every folder by its path, minus `excluded`. */
export function folderOptions(
  tree: FolderTree<TreeFolder, unknown>,
  rootLabel: string,
  excluded: ReadonlySet<string> = new Set(),
) {
  const folders = [...tree.folders.values()]
    .filter((f) => !excluded.has(f.id))
    .map((f) => ({ value: f.id, label: folderPath(tree, f.id) }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return [{ value: TOP_LEVEL, label: rootLabel }, ...folders];
}

/** The rows on screen: an expanded folder shows its subfolders, then its leaves, one level deeper. */
export function visibleRows<F extends TreeFolder, L>(
  tree: FolderTree<F, L>,
  expanded: ReadonlySet<string>,
): TreeRow<F, L>[] {
  const rows: TreeRow<F, L>[] = [];
  const walk = (parentId: string | null, depth: number) => {
    for (const folder of tree.childFolders.get(parentId) ?? []) {
      rows.push({ kind: 'folder', folder, depth });
      if (expanded.has(folder.id)) walk(folder.id, depth + 1);
    }
    for (const leaf of tree.leaves.get(parentId) ?? []) rows.push({ kind: 'leaf', leaf, depth });
  };
  walk(null, 0);
  return rows;
}

/** Search: every folder, then every leaf, whose name holds `needle` (any case), wherever it is. */
export function matchingRows<F extends TreeFolder, L>(tree: FolderTree<F, L>, needle: string): TreeRow<F, L>[] {
  const n = needle.toLowerCase();
  const rows: TreeRow<F, L>[] = [];
  for (const folder of tree.folders.values())
    if (folder.name.toLowerCase().includes(n)) rows.push({ kind: 'folder', folder, depth: 0 });
  for (const leaf of tree.allLeaves)
    if (tree.shape.nameOf(leaf).toLowerCase().includes(n)) rows.push({ kind: 'leaf', leaf, depth: 0 });
  return rows;
}
