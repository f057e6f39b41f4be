import { entryName, entryParent, folderPath, type TreeEntry, type TreeFolder } from '../../lib/folder-tree';
import { notifySuccess } from '../../lib/notify';
import { plural } from '../../lib/units';
import { ConfirmDialog } from '../confirm-dialog';
import { NameDialog } from '../name-dialog';
import { TreeMoveDialog } from './tree-move-dialog';
import type { Archiving, Dialog, FolderExplorerProps, FolderTreeOps } from './types';
import type { TreeModel } from './use-tree-model';

/** The explorer's dialogs: create, rename, move (one row or the selection) and archive. */
export function ExplorerDialogs<F extends TreeFolder, L>({
  explorer: { tree, ops, rootLabel },
  model,
  dialog: d,
  onClose,
}: {
  explorer: FolderExplorerProps<F, L>;
  model: TreeModel<F, L>;
  dialog: Dialog<F, L> | null;
  onClose: () => void;
}) {
  const named = d && 'entry' in d ? entryName(tree, d.entry) : '';
  const inFolder = (folderId: string | null, what: string) =>
    folderId ? `New ${what} in ${folderPath(tree, folderId)}` : `New ${what}`;
  const archive = d?.type === 'archive' ? archiving(ops, d.entry) : null;
  return (
    <>
      <NameDialog
        opened={d?.type === 'create-folder'}
        title={inFolder(d?.type === 'create-folder' ? d.parentId : null, 'folder')}
        label="Folder name"
        submitLabel="Create folder"
        onClose={onClose}
        onSubmit={async (name) => {
          if (d?.type !== 'create-folder') return;
          const folder = await ops.createFolder(name, d.parentId);
          model.expand(d.parentId);
          notifySuccess(`Created folder ${folder.name}`);
        }}
      />
      {ops.createLeaf && (
        <NameDialog
          opened={d?.type === 'create-leaf'}
          title={inFolder(d?.type === 'create-leaf' ? d.folderId : null, ops.createLeaf.noun)}
          label={`${capitalized(ops.createLeaf.noun)} name`}
          submitLabel={`Create ${ops.createLeaf.noun}`}
          onClose={onClose}
          onSubmit={async (name) => {
            if (d?.type !== 'create-leaf' || !ops.createLeaf) return;
            const created = await ops.createLeaf.run(name, d.folderId);
            model.expand(d.folderId);
            notifySuccess(`Created ${ops.createLeaf.noun} ${created.name}`);
          }}
        />
      )}
      <NameDialog
        opened={d?.type === 'rename'}
        title={d?.type === 'rename' ? `Rename ${named}` : 'Rename'}
        label="New name"
        initial={d?.type === 'rename' ? named : ''}
        submitLabel="Rename"
        onClose={onClose}
        onSubmit={async (name) => {
          if (d?.type !== 'rename') return;
          if (d.entry.kind === 'folder') await ops.renameFolder(d.entry.folder, name);
          else await ops.renameLeaf?.(d.entry.leaf, name);
          notifySuccess(`Renamed to ${name}`);
        }}
      />
      <TreeMoveDialog
        tree={tree}
        rootLabel={rootLabel}
        subject={d?.type === 'move-selected' ? { name: plural(model.selected.size, 'selected row') } : null}
        onClose={onClose}
        onMove={model.moveSelected}
      />
      <TreeMoveDialog
        tree={tree}
        rootLabel={rootLabel}
        subject={
          d?.type === 'move'
            ? {
                name: named,
                parentId: entryParent(tree, d.entry),
                ...(d.entry.kind === 'folder' ? { folderId: d.entry.folder.id } : {}),
              }
            : null
        }
        onClose={onClose}
        onMove={(folderId) => (d?.type === 'move' ? model.move(d.entry, folderId) : Promise.resolve())}
      />
      <ConfirmDialog
        opened={archive !== null}
        title={archive ? `Archive ${named}?` : 'Archive'}
        message={archive?.message}
        confirmLabel={archive?.confirmLabel ?? 'Archive'}
        onClose={onClose}
        onConfirm={async () => {
          if (!archive) return;
          await archive.run();
          notifySuccess(archive.done(named));
        }}
      />
    </>
  );
}

/** Archiving an entry: a folder's, or a leaf's where leaves can be archived here. */
function archiving<F, L>(ops: FolderTreeOps<F, L>, entry: TreeEntry<F, L>) {
  const bind = <T,>(a: Archiving<T>, target: T) => ({
    message: a.message(target),
    confirmLabel: a.confirmLabel,
    done: a.done,
    run: () => a.run(target),
  });
  if (entry.kind === 'folder') return bind(ops.archiveFolder, entry.folder);
  return ops.archiveLeaf ? bind(ops.archiveLeaf, entry.leaf) : null;
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
