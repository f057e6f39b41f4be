import type { Virtualizer } from '@tanstack/react-virtual';
import { type RefObject, useState } from 'react';
import { entryParent, type FolderTree, type TreeFolder } from '../../lib/folder-tree';
import type { TreeModel } from './use-tree-model';

/**
 * Arrow keys as in every tree (WAI-ARIA tree pattern): up and down move between rows, right opens
 * a folder or goes to its first child, left closes it or goes to the parent, Home and End, Enter
 * opens or closes, Space selects. One row takes Tab (roving tabindex); the row is scrolled into
 * view first, as only the rows in view exist.
 */
export function useTreeKeyboard<F extends TreeFolder, L>(
  tree: FolderTree<F, L>,
  model: TreeModel<F, L>,
  virtualizer: Virtualizer<HTMLElement, Element>,
  treeRef: RefObject<HTMLDivElement | null>,
) {
  const { rows, expanded, needle, toggle, toggleSelected } = model;
  const [active, setActive] = useState(0);
  const activeIndex = Math.min(active, Math.max(0, rows.length - 1));

  const focusRow = (index: number) => {
    if (index < 0 || index >= rows.length) return;
    setActive(index);
    virtualizer.scrollToIndex(index);
    requestAnimationFrame(() => treeRef.current?.querySelector<HTMLElement>(`[data-tree-index="${index}"]`)?.focus());
  };

  const onKeyDown = (e: React.KeyboardEvent, index: number) => {
    // Keys typed in a row's own controls (its menu button) are theirs.
    if (e.target !== e.currentTarget) return;
    const row = rows[index]!;
    const folderOpen = row.kind === 'folder' && expanded.has(row.folder.id);
    const parentRow = () => {
      const parent = entryParent(tree, row);
      return rows.findIndex((r) => r.kind === 'folder' && r.folder.id === parent);
    };
    switch (e.key) {
      case 'ArrowDown':
        focusRow(index + 1);
        break;
      case 'ArrowUp':
        focusRow(index - 1);
        break;
      case 'Home':
        focusRow(0);
        break;
      case 'End':
        focusRow(rows.length - 1);
        break;
      case 'ArrowRight':
        if (row.kind === 'folder' && !needle) {
          if (folderOpen) focusRow(index + 1);
          else toggle(row.folder.id);
        }
        break;
      case 'ArrowLeft':
        if (row.kind === 'folder' && folderOpen && !needle) toggle(row.folder.id);
        else focusRow(parentRow());
        break;
      case 'Enter':
        if (row.kind === 'folder') toggle(row.folder.id);
        break;
      case ' ':
        toggleSelected(
          row.kind === 'folder' ? { kind: 'folder', folder: row.folder } : { kind: 'leaf', leaf: row.leaf },
        );
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  /** Only the active row takes Tab. */
  const tabIndexOf = (index: number) => (index === activeIndex ? 0 : -1);

  /** The handlers of the row at `index`, and the mark its focusing finds it by. */
  const itemProps = (index: number) => ({
    'data-tree-index': index,
    onKeyDown: (e: React.KeyboardEvent) => onKeyDown(e, index),
    onFocus: (e: React.FocusEvent) => {
      if (e.target === e.currentTarget) setActive(index);
    },
  });

  return { tabIndexOf, itemProps };
}
