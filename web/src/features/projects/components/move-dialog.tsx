import { useMemo } from 'react';
import { FolderMoveDialog, TOP_LEVEL } from '../../../components/folder-move-dialog';
import { folderPath, subtreeIds, type Tree } from './tree-model';

/** "Move to…" in the project explorer: a folder (under another) or a project (into a folder). */
export function MoveDialog({
  opened,
  tree,
  item,
  onClose,
  onMove,
}: {
  opened: boolean;
  tree: Tree;
  item: { kind: 'folder' | 'project'; id: string; name: string; parentId: string | null } | null;
  onClose: () => void;
  onMove: (folderId: string | null) => Promise<unknown>;
}) {
  const options = useMemo(() => {
    if (!item) return [];
    const excluded = item.kind === 'folder' ? subtreeIds(tree, item.id) : new Set<string>();
    const folders = [...tree.folders.values()]
      .filter((f) => !excluded.has(f.id) && f.id !== item.parentId)
      .map((f) => ({ value: f.id, label: folderPath(tree, f.id) }))
      .sort((a, b) => a.label.localeCompare(b.label));
    return item.parentId === null ? folders : [{ value: TOP_LEVEL, label: '/ (top level)' }, ...folders];
  }, [tree, item]);
  return (
    <FolderMoveDialog
      opened={opened}
      name={item?.name}
      currentPath={item ? folderPath(tree, item.parentId) : undefined}
      options={options}
      onClose={onClose}
      onMove={onMove}
    />
  );
}
