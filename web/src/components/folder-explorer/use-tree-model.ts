import { useDeferredValue, useMemo, useState } from 'react';
import { useBulkRun } from '../../lib/bulk';
import {
  entryKey,
  entryName,
  entryParent,
  type FolderTree,
  folderPath,
  matchingRows,
  type TreeEntry,
  type TreeFolder,
  visibleRows,
} from '../../lib/folder-tree';
import { notifyError, notifySuccess } from '../../lib/notify';
import { keyBetween } from '../../lib/sort-key';
import type { FolderTreeOps } from './types';

/**
 * The explorer's state over its tree: which folders are open, the search, the rows they give
 * (only expanded folders contribute rows), the selection, and the changes that keep what they
 * moved in view.
 */
export function useTreeModel<F extends TreeFolder, L>(tree: FolderTree<F, L>, ops: FolderTreeOps<F, L>) {
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const [search, setSearch] = useState('');
  const needle = useDeferredValue(search.trim());
  const rows = useMemo(
    () => (needle ? matchingRows(tree, needle) : visibleRows(tree, expanded)),
    [tree, expanded, needle],
  );
  const [selected, setSelected] = useState<Map<string, TreeEntry<F, L>>>(() => new Map());
  const bulk = useBulkRun();

  const toggle = (id: string) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const expand = (folderId: string | null) => {
    if (folderId) setExpanded((prev) => new Set(prev).add(folderId));
  };
  const expandAll = () => setExpanded(new Set(tree.folders.keys()));
  const collapseAll = () => setExpanded(new Set());

  const move = async (entry: TreeEntry<F, L>, folderId: string | null) => {
    await ops.move(entry, folderId);
    expand(folderId);
    notifySuccess(`Moved ${entryName(tree, entry)} to ${folderPath(tree, folderId)}`);
  };

  const toggleSelected = (entry: TreeEntry<F, L>) =>
    setSelected((prev) => {
      const next = new Map(prev);
      const key = entryKey(tree, entry);
      if (next.has(key)) next.delete(key);
      else next.set(key, entry);
      return next;
    });
  const clearSelection = () => setSelected(new Map());

  /** Moves every selected row, one request each; the summary says which moved and which were refused. */
  const moveSelected = async (folderId: string | null) => {
    const outcomes = await bulk.run(
      `Moved to ${folderPath(tree, folderId)}`,
      [...selected.values()],
      (entry) => ({ key: entryKey(tree, entry), label: entryName(tree, entry) }),
      (entry) => ops.move(entry, folderId),
    );
    setExpanded((prev) => {
      // The destination and the folders above it, so what moved is in view.
      const next = new Set(prev);
      for (let id = folderId; id !== null && !next.has(id); id = tree.folders.get(id)?.parentId ?? null) next.add(id);
      return next;
    });
    const moved = new Set(outcomes.filter((o) => o.ok).map((o) => o.key));
    setSelected((prev) => new Map([...prev].filter(([key]) => !moved.has(key))));
  };

  /** Up or down among its siblings: a sort key between the new neighbours, or renumber them all. */
  const reorder = async (folder: F, direction: -1 | 1) => {
    const siblings = tree.childFolders.get(entryParent(tree, { kind: 'folder', folder })) ?? [];
    const index = siblings.findIndex((f) => f.id === folder.id);
    const slot = index + direction; // its position among the others
    if (index < 0 || slot < 0 || slot >= siblings.length) return;
    const others = siblings.filter((f) => f.id !== folder.id);
    const key = keyBetween(others[slot - 1]?.sortKey ?? null, others[slot]?.sortKey ?? null);
    try {
      if (key !== null) {
        await ops.reorderFolder(folder, key);
      } else {
        const order = [...others.slice(0, slot), folder, ...others.slice(slot)];
        for (const [i, f] of order.entries()) {
          const sortKey = String((i + 1) * 1000).padStart(10, '0');
          if (f.sortKey !== sortKey) await ops.reorderFolder(f, sortKey);
        }
      }
      notifySuccess(`Moved ${folder.name} ${direction < 0 ? 'up' : 'down'}`);
    } catch (e) {
      notifyError(e, `${folder.name} was not reordered`);
    }
  };

  return {
    rows,
    expanded,
    toggle,
    expand,
    expandAll,
    collapseAll,
    search,
    setSearch,
    needle,
    selected,
    toggleSelected,
    clearSelection,
    bulk,
    move,
    moveSelected,
    reorder,
  };
}

export type TreeModel<F extends TreeFolder, L> = ReturnType<typeof useTreeModel<F, L>>;
