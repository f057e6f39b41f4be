import { useMemo } from 'react';
import { FolderMoveDialog } from '../../../components/folder-move-dialog';
import { folderOptions, folderPath, type Library, ROOT, subtreeIds } from './library-tree';

export type LibraryItem = { kind: 'folder' | 'role' | 'skill'; id: string; name: string; folderId: string | null };

/** "Move to…" in the agent library: a folder (under another), a role or a skill (into a folder). */
export function LibraryMoveDialog({
  lib,
  item,
  onClose,
  onMove,
}: {
  lib: Library;
  item: LibraryItem | null;
  onClose: () => void;
  onMove: (item: LibraryItem, folderId: string | null) => Promise<unknown>;
}) {
  const options = useMemo(() => {
    if (!item) return [];
    const excluded = item.kind === 'folder' ? subtreeIds(lib, item.id) : new Set<string>();
    return folderOptions(lib, excluded).filter((o) => o.value !== (item.folderId ?? ROOT));
  }, [lib, item]);
  return (
    <FolderMoveDialog
      opened={item !== null}
      name={item?.name}
      currentPath={item ? folderPath(lib, item.folderId) : undefined}
      options={options}
      onClose={onClose}
      onMove={(folderId) => (item ? onMove(item, folderId) : Promise.resolve())}
    />
  );
}
