import { ActionIcon, Box, Checkbox, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import {
  entryKey,
  entryName,
  entryParent,
  folderPath,
  type TreeEntry,
  type TreeFolder,
  type TreeRow as Row,
} from '../../lib/folder-tree';
import { FolderIcon } from '../icons';
import type { Dialog, FolderExplorerProps, LeafAction } from './types';
import type { useTreeDrag } from './use-tree-drag';
import type { TreeModel } from './use-tree-model';

export const ROW_HEIGHT = 44;

type TreeRowProps<F extends TreeFolder, L> = {
  row: Row<F, L>;
  explorer: FolderExplorerProps<F, L>;
  model: TreeModel<F, L>;
  drag: ReturnType<typeof useTreeDrag<F, L>>;
  openDialog: (dialog: Dialog<F, L>) => void;
};

/** One row: its checkbox, a folder's toggle, icon, name and counts or the caller's leaf, and its menu. */
export function TreeRow<F extends TreeFolder, L>({ row, explorer, model, drag, openDialog }: TreeRowProps<F, L>) {
  const { tree, leaf } = explorer;
  const { needle, expanded, selected } = model;
  const name = entryName(tree, row);
  const where = needle ? (
    <Text span size="xs" c="dimmed">
      {'  '}in {folderPath(tree, entryParent(tree, row))}
    </Text>
  ) : null;
  const highlighted = row.kind === 'folder' && drag.isTarget(row.folder.id);
  const open = row.kind === 'folder' && expanded.has(row.folder.id);
  const actionsLabel = `Actions for ${explorer.kindOf ? `${explorer.kindOf(row)} ` : ''}${name}`;
  return (
    <Group
      gap="xs"
      wrap="nowrap"
      h={ROW_HEIGHT}
      pl={needle ? 8 : 8 + row.depth * 20}
      pr={8}
      data-testid={row.kind === 'folder' ? `row-folder-${name}` : leaf.testId(row.leaf)}
      style={{
        borderBottom: '1px solid var(--mantine-color-default-border)',
        background: highlighted ? 'var(--mantine-primary-color-light)' : undefined,
        outline: highlighted ? '2px dashed var(--mantine-primary-color-filled)' : undefined,
        cursor: explorer.dragToMove ? 'grab' : undefined,
      }}
      {...drag.rowProps(row)}
    >
      <Checkbox
        aria-label={`Select ${name}`}
        checked={selected.has(entryKey(tree, row))}
        onChange={() => model.toggleSelected(row.kind === 'folder' ? { kind: 'folder', folder: row.folder } : row)}
      />
      {row.kind === 'folder' ? (
        <>
          <UnstyledButton
            onClick={() => model.toggle(row.folder.id)}
            aria-expanded={open}
            aria-label={`${open ? 'Collapse' : 'Expand'} ${name}`}
            w={24}
            ta="center"
          >
            <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          </UnstyledButton>
          <FolderIcon />
          <Text size="sm" fw={500} truncate miw={0} style={{ flex: 1 }}>
            {name}
            {where}
          </Text>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {explorer.folderDetail(row.folder)}
          </Text>
        </>
      ) : (
        <>
          <Box w={24} />
          {leaf.render(row.leaf, where)}
        </>
      )}
      <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={actionsLabel}>
            <span aria-hidden="true">⋯</span>
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {row.kind === 'folder' ? (
            <FolderMenu folder={row.folder} explorer={explorer} model={model} openDialog={openDialog} />
          ) : (
            leafMenu(row.leaf, explorer, openDialog)
          )}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

function FolderMenu<F extends TreeFolder, L>({
  folder,
  explorer: { tree, ops },
  model,
  openDialog,
}: { folder: F } & Pick<TreeRowProps<F, L>, 'explorer' | 'model' | 'openDialog'>) {
  const entry: TreeEntry<F, L> = { kind: 'folder', folder };
  const siblings = tree.childFolders.get(entryParent(tree, entry)) ?? [];
  const position = siblings.findIndex((f) => f.id === folder.id);
  // The server archives only an empty folder (409 folder_not_empty): say so before the click.
  const holds = (tree.childFolders.get(folder.id)?.length ?? 0) + (tree.leaves.get(folder.id)?.length ?? 0);
  return (
    <>
      <Menu.Item onClick={() => openDialog({ type: 'create-folder', parentId: folder.id })}>
        New folder inside
      </Menu.Item>
      {ops.createLeaf && (
        <Menu.Item onClick={() => openDialog({ type: 'create-leaf', folderId: folder.id })}>
          New {ops.createLeaf.noun} inside
        </Menu.Item>
      )}
      <Menu.Item onClick={() => openDialog({ type: 'rename', entry })}>Rename</Menu.Item>
      <Menu.Item onClick={() => openDialog({ type: 'move', entry })}>Move to…</Menu.Item>
      <Menu.Item disabled={position <= 0} onClick={() => model.reorder(folder, -1)}>
        Move up
      </Menu.Item>
      <Menu.Item disabled={position < 0 || position >= siblings.length - 1} onClick={() => model.reorder(folder, 1)}>
        Move down
      </Menu.Item>
      <Menu.Item disabled={holds > 0} onClick={() => openDialog({ type: 'archive', entry })}>
        {ops.archiveFolder.label}
        {holds > 0 && (
          <Text size="xs" c="dimmed">
            Not empty: move or archive what it holds first
          </Text>
        )}
      </Menu.Item>
    </>
  );
}

/** A leaf's menu: the caller's links, and the dialogs the explorer can run for it. */
function leafMenu<F extends TreeFolder, L>(
  item: L,
  { leaf, ops }: FolderExplorerProps<F, L>,
  openDialog: (dialog: Dialog<F, L>) => void,
) {
  const entry: TreeEntry<F, L> = { kind: 'leaf', leaf: item };
  const offered = (action: LeafAction) =>
    !('dialog' in action) ||
    (action.dialog === 'rename' ? !!ops.renameLeaf : action.dialog === 'archive' ? !!ops.archiveLeaf : true);
  return leaf
    .actions(item)
    .filter(offered)
    .map((action) =>
      'to' in action ? (
        <Menu.Item key={action.label} component={Link} to={action.to}>
          {action.label}
        </Menu.Item>
      ) : (
        <Menu.Item key={action.label} onClick={() => openDialog({ type: action.dialog, entry })}>
          {action.label}
        </Menu.Item>
      ),
    );
}
