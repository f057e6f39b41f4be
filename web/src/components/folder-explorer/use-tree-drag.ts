import { useState } from 'react';
import {
  entryName,
  entryParent,
  subtreeIds,
  type TreeEntry,
  type TreeFolder,
  type TreeRow,
} from '../../lib/folder-tree';
import { notifyError } from '../../lib/notify';
import type { TreeModel } from './use-tree-model';
import type { FolderTree } from '../../lib/folder-tree';

/** The drop target that stands for the top level. */
const ROOT_DROP = '__root__';

/**
 * Dragging a row onto a folder, or onto the zone for the top level, moves it there; a folder never
 * goes into itself or below itself, and nothing is dropped where it already is.
 */
export function useTreeDrag<F extends TreeFolder, L>(tree: FolderTree<F, L>, model: TreeModel<F, L>, enabled: boolean) {
  const [dragging, setDragging] = useState<TreeEntry<F, L> | null>(null);
  const [dropTarget, setDropTarget] = useState<string | null>(null);

  const canDropInto = (folderId: string | null) => {
    if (!dragging || entryParent(tree, dragging) === folderId) return false;
    return !(dragging.kind === 'folder' && folderId !== null && subtreeIds(tree, dragging.folder.id).has(folderId));
  };

  const drop = (folderId: string | null) => {
    const entry = dragging;
    setDragging(null);
    setDropTarget(null);
    if (entry && canDropInto(folderId))
      model.move(entry, folderId).catch((e) => notifyError(e, `${entryName(tree, entry)} was not moved`));
  };

  /** A row's drag handlers: every row can be dragged, a folder's row takes drops. */
  const rowProps = (row: TreeRow<F, L>) => {
    if (!enabled) return {};
    const onto =
      row.kind === 'folder'
        ? {
            onDragOver: (e: React.DragEvent) => {
              if (!canDropInto(row.folder.id)) return;
              e.preventDefault();
              e.dataTransfer.dropEffect = 'move';
              if (dropTarget !== row.folder.id) setDropTarget(row.folder.id);
            },
            onDragLeave: () => setDropTarget((t) => (t === row.folder.id ? null : t)),
            onDrop: (e: React.DragEvent) => {
              e.preventDefault();
              drop(row.folder.id);
            },
          }
        : {};
    return {
      draggable: true,
      onDragStart: (e: React.DragEvent) => {
        e.dataTransfer.effectAllowed = 'move';
        e.dataTransfer.setData('text/plain', entryName(tree, row));
        setDragging(row.kind === 'folder' ? { kind: 'folder', folder: row.folder } : { kind: 'leaf', leaf: row.leaf });
      },
      onDragEnd: () => {
        setDragging(null);
        setDropTarget(null);
      },
      ...onto,
    };
  };

  /** The top-level zone's drop handlers. */
  const rootProps = {
    onDragOver: (e: React.DragEvent) => {
      if (!canDropInto(null)) return;
      e.preventDefault();
      setDropTarget(ROOT_DROP);
    },
    onDragLeave: () => setDropTarget((t) => (t === ROOT_DROP ? null : t)),
    onDrop: (e: React.DragEvent) => {
      e.preventDefault();
      drop(null);
    },
  };

  return {
    rowProps,
    rootProps,
    /** Whether a drag hovers over this folder's row. */
    isTarget: (folderId: string) => dropTarget === folderId,
    rootIsTarget: dropTarget === ROOT_DROP,
  };
}
