import {
  ActionIcon,
  Box,
  Button,
  Checkbox,
  Group,
  Loader,
  Menu,
  Paper,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useIsMutating } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useDeferredValue, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  entryKey,
  entryName,
  entryParent,
  type FolderTree,
  folderPath,
  matchingRows,
  subtreeIds,
  type TreeEntry,
  type TreeFolder,
  type TreeRow,
  visibleRows,
} from '../../lib/folder-tree';
import { useBulkRun } from '../../lib/bulk';
import { notifyError, notifySuccess } from '../../lib/notify';
import { keyBetween } from '../../lib/sort-key';
import { plural } from '../../lib/units';
import { BulkProgress, BulkSummary } from '../bulk-summary';
import { ConfirmDialog } from '../confirm-dialog';
import { FolderIcon } from '../icons';
import { NameDialog } from '../name-dialog';
import { ScrollRegion } from '../scroll-region';
import { TreeMoveDialog } from './tree-move-dialog';

/** An entry of a leaf's menu: a link, or one of the explorer's dialogs for that leaf. */
export type LeafAction = { label: string; to: string } | { label: string; dialog: 'rename' | 'move' | 'archive' };

/** Archiving something after a confirmation that says what it means. */
export type Archiving<T> = {
  run: (target: T) => Promise<unknown>;
  message: (target: T) => string;
  confirmLabel: string;
  /** The notification once done, given the name. */
  done: (name: string) => string;
};

/** What the explorer can change; each returns the server's answer or throws its refusal. */
export type FolderTreeOps<F, L> = {
  createFolder: (name: string, parentId: string | null) => Promise<{ name: string }>;
  renameFolder: (folder: F, name: string) => Promise<unknown>;
  /** Gives a folder a new place among its siblings. */
  reorderFolder: (folder: F, sortKey: string) => Promise<unknown>;
  move: (entry: TreeEntry<F, L>, folderId: string | null) => Promise<unknown>;
  /** The folder menu's label for it, with the rest. */
  archiveFolder: Archiving<F> & { label: string };
  /** A leaf's "rename" and "archive" actions show only when these are given. */
  renameLeaf?: (leaf: L, name: string) => Promise<unknown>;
  archiveLeaf?: Archiving<L>;
  /** Leaves made here: "New {noun}" beside "New folder", and "New {noun} inside" a folder. */
  createLeaf?: { noun: string; run: (name: string, folderId: string | null) => Promise<{ name: string }> };
};

export type FolderExplorerProps<F extends TreeFolder, L> = {
  tree: FolderTree<F, L>;
  /** While loading, the summary says so and the list does not call itself empty. */
  pending: boolean;
  /** The line under the toolbar once loaded; `matches` counts the search's rows while one runs. */
  summary: (matches: number | null) => string;
  /** What an empty tree says. */
  empty: string;
  /** Names the scrolling list for assistive technology. */
  listLabel: string;
  /** How the move dialog names the top level. */
  rootLabel: string;
  /** A search box over every folder's and leaf's name, labelled so; none without it. */
  searchLabel?: string;
  /** Rows can be dragged onto a folder, or onto a zone for the top level, to move them. */
  dragToMove?: boolean;
  /** The kind an actions menu names ("Actions for role Triage"), where one list holds several. */
  kindOf?: (entry: TreeEntry<F, L>) => string;
  /** A folder's row ends with this (its counts). */
  folderDetail: (folder: F) => string;
  leaf: {
    testId: (leaf: L) => string;
    /** The row between its indent and its menu; `where` names its folder while a search runs. */
    render: (leaf: L, where: ReactNode) => ReactNode;
    actions: (leaf: L) => LeafAction[];
  };
  ops: FolderTreeOps<F, L>;
};

type Dialog<F, L> =
  | { type: 'create-folder'; parentId: string | null }
  | { type: 'create-leaf'; folderId: string | null }
  | { type: 'rename' | 'move' | 'archive'; entry: TreeEntry<F, L> }
  | { type: 'move-selected' };

const ROW_HEIGHT = 44;
/** Beyond this many folders "Expand all" would lay out more rows than a person can use. */
const EXPAND_ALL_LIMIT = 2000;
const ROOT_DROP = '__root__';

/**
 * A folder tree with its leaves: loaded once, only expanded folders contribute rows and only the
 * rows in view are rendered, so 20,000 leaves stay fast. Folders are created, renamed, moved,
 * reordered and archived here; what a leaf is, shows and offers comes from the caller.
 */
export function FolderExplorer<F extends TreeFolder, L>(props: FolderExplorerProps<F, L>) {
  const { tree, ops, leaf } = props;
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const [search, setSearch] = useState('');
  const needle = useDeferredValue(search.trim());
  const rows = useMemo(
    () => (needle ? matchingRows(tree, needle) : visibleRows(tree, expanded)),
    [tree, expanded, needle],
  );
  const [dialog, setDialog] = useState<Dialog<F, L> | null>(null);
  const [dragging, setDragging] = useState<TreeEntry<F, L> | null>(null);
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const saving = useIsMutating() > 0;
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

  const canDropInto = (folderId: string | null) => {
    if (!dragging || entryParent(tree, dragging) === folderId) return false;
    return !(dragging.kind === 'folder' && folderId !== null && subtreeIds(tree, dragging.folder.id).has(folderId));
  };

  const drop = (folderId: string | null) => {
    const entry = dragging;
    setDragging(null);
    setDropTarget(null);
    if (entry && canDropInto(folderId))
      move(entry, folderId).catch((e) => notifyError(e, `${entryName(tree, entry)} was not moved`));
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

  const scrollRef = useRef<HTMLElement>(null);
  const treeRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const activeIndex = Math.min(active, Math.max(0, rows.length - 1));
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 15,
    getItemKey: (i) => entryKey(tree, rows[i]!),
  });

  const actionsLabel = (entry: TreeEntry<F, L>) =>
    `Actions for ${props.kindOf ? `${props.kindOf(entry)} ` : ''}${entryName(tree, entry)}`;

  const folderMenu = (folder: F) => {
    const entry: TreeEntry<F, L> = { kind: 'folder', folder };
    const siblings = tree.childFolders.get(entryParent(tree, entry)) ?? [];
    const position = siblings.findIndex((f) => f.id === folder.id);
    // The server archives only an empty folder (409 folder_not_empty): say so before the click.
    const holds = (tree.childFolders.get(folder.id)?.length ?? 0) + (tree.leaves.get(folder.id)?.length ?? 0);
    return (
      <>
        <Menu.Item onClick={() => setDialog({ type: 'create-folder', parentId: folder.id })}>
          New folder inside
        </Menu.Item>
        {ops.createLeaf && (
          <Menu.Item onClick={() => setDialog({ type: 'create-leaf', folderId: folder.id })}>
            New {ops.createLeaf.noun} inside
          </Menu.Item>
        )}
        <Menu.Item onClick={() => setDialog({ type: 'rename', entry })}>Rename</Menu.Item>
        <Menu.Item onClick={() => setDialog({ type: 'move', entry })}>Move to…</Menu.Item>
        <Menu.Item disabled={position <= 0} onClick={() => reorder(folder, -1)}>
          Move up
        </Menu.Item>
        <Menu.Item disabled={position < 0 || position >= siblings.length - 1} onClick={() => reorder(folder, 1)}>
          Move down
        </Menu.Item>
        <Menu.Item disabled={holds > 0} onClick={() => setDialog({ type: 'archive', entry })}>
          {ops.archiveFolder.label}
          {holds > 0 && (
            <Text size="xs" c="dimmed">
              Not empty: move or archive what it holds first
            </Text>
          )}
        </Menu.Item>
      </>
    );
  };

  const leafMenu = (item: L) => {
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
          <Menu.Item key={action.label} onClick={() => setDialog({ type: action.dialog, entry })}>
            {action.label}
          </Menu.Item>
        ),
      );
  };

  const dragProps = (row: TreeRow<F, L>) => {
    if (!props.dragToMove) return {};
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

  /**
   * Arrow keys as in every tree (WAI-ARIA tree pattern): up and down move between rows, right opens
   * a folder or goes to its first child, left closes it or goes to the parent, Home and End, Enter
   * opens or closes. One row takes Tab (roving tabindex); the row is scrolled into view first, as
   * only the rows in view exist.
   */
  const focusRow = (index: number) => {
    if (index < 0 || index >= rows.length) return;
    setActive(index);
    virtualizer.scrollToIndex(index);
    requestAnimationFrame(() => treeRef.current?.querySelector<HTMLElement>(`[data-tree-index="${index}"]`)?.focus());
  };
  const onTreeKey = (e: React.KeyboardEvent, index: number) => {
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

  const renderRow = (row: TreeRow<F, L>) => {
    const name = entryName(tree, row);
    const where = needle ? (
      <Text span size="xs" c="dimmed">
        {'  '}in {folderPath(tree, entryParent(tree, row))}
      </Text>
    ) : null;
    const highlighted = row.kind === 'folder' && dropTarget === row.folder.id;
    const open = row.kind === 'folder' && expanded.has(row.folder.id);
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
          cursor: props.dragToMove ? 'grab' : undefined,
        }}
        {...dragProps(row)}
      >
        <Checkbox
          aria-label={`Select ${name}`}
          checked={selected.has(entryKey(tree, row))}
          onChange={() => toggleSelected(row.kind === 'folder' ? { kind: 'folder', folder: row.folder } : row)}
        />
        {row.kind === 'folder' ? (
          <>
            <UnstyledButton
              onClick={() => toggle(row.folder.id)}
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
              {props.folderDetail(row.folder)}
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
            <ActionIcon variant="subtle" color="gray" aria-label={actionsLabel(row)}>
              <span aria-hidden="true">⋯</span>
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>{row.kind === 'folder' ? folderMenu(row.folder) : leafMenu(row.leaf)}</Menu.Dropdown>
        </Menu>
      </Group>
    );
  };

  const d = dialog;
  const named = d && 'entry' in d ? entryName(tree, d.entry) : '';
  const inFolder = (folderId: string | null, what: string) =>
    folderId ? `New ${what} in ${folderPath(tree, folderId)}` : `New ${what}`;
  const archive = d?.type === 'archive' ? archiving(ops, d.entry) : null;
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Group wrap="wrap">
          <Button onClick={() => setDialog({ type: 'create-folder', parentId: null })}>New folder</Button>
          {ops.createLeaf && (
            <Button variant="default" onClick={() => setDialog({ type: 'create-leaf', folderId: null })}>
              New {ops.createLeaf.noun}
            </Button>
          )}
          <Button
            variant="default"
            onClick={() => setExpanded(new Set(tree.folders.keys()))}
            disabled={tree.folders.size > EXPAND_ALL_LIMIT}
          >
            Expand all
          </Button>
          <Button variant="default" onClick={() => setExpanded(new Set())}>
            Collapse all
          </Button>
        </Group>
        <Group gap="xs">
          {saving && <Loader size="sm" aria-label="Saving" />}
          {props.searchLabel && (
            <TextInput
              aria-label={props.searchLabel}
              placeholder={props.searchLabel}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              w={260}
            />
          )}
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        {props.pending ? 'Loading…' : props.summary(needle ? rows.length : null)}
      </Text>
      {selected.size > 0 && (
        <Paper withBorder p="sm" role="region" aria-label="Selected rows">
          <Group wrap="wrap">
            <Text size="sm" fw={500}>
              {selected.size} selected
            </Text>
            <Button
              size="xs"
              onClick={() => setDialog({ type: 'move-selected' })}
              loading={bulk.progress !== null}
              disabled={bulk.progress !== null}
            >
              Move {selected.size} to…
            </Button>
            <Button size="xs" variant="subtle" onClick={() => setSelected(new Map())}>
              Clear selection
            </Button>
          </Group>
        </Paper>
      )}
      <BulkProgress progress={bulk.progress} />
      <BulkSummary report={bulk.report} onDismiss={bulk.dismiss} />
      {props.dragToMove && (
        <Paper
          withBorder
          p="xs"
          ta="center"
          data-testid="drop-root"
          style={{
            borderStyle: 'dashed',
            background: dropTarget === ROOT_DROP ? 'var(--mantine-primary-color-light)' : undefined,
          }}
          onDragOver={(e) => {
            if (!canDropInto(null)) return;
            e.preventDefault();
            setDropTarget(ROOT_DROP);
          }}
          onDragLeave={() => setDropTarget((t) => (t === ROOT_DROP ? null : t))}
          onDrop={(e) => {
            e.preventDefault();
            drop(null);
          }}
        >
          <Text size="xs" c="dimmed">
            Drop here to move to the top level
          </Text>
        </Paper>
      )}
      <Paper withBorder>
        <ScrollRegion ref={scrollRef} label={props.listLabel} style={{ maxHeight: '65vh' }}>
          {rows.length === 0 && !props.pending && (
            <Text p="md" c="dimmed">
              {needle ? 'Nothing matches.' : props.empty}
            </Text>
          )}
          <div
            ref={treeRef}
            // A tree needs its items (axe: aria-required-children): an empty list is no tree.
            {...(rows.length > 0 ? { role: 'tree', 'aria-label': props.listLabel } : {})}
            style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
          >
            {virtualizer.getVirtualItems().map((v) => {
              const row = rows[v.index]!;
              return (
                <div
                  key={v.key}
                  role="treeitem"
                  aria-label={entryName(tree, row)}
                  aria-level={needle ? 1 : row.depth + 1}
                  aria-expanded={row.kind === 'folder' ? expanded.has(row.folder.id) : undefined}
                  tabIndex={v.index === activeIndex ? 0 : -1}
                  data-tree-index={v.index}
                  onKeyDown={(e) => onTreeKey(e, v.index)}
                  onFocus={(e) => {
                    if (e.target === e.currentTarget) setActive(v.index);
                  }}
                  style={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    width: '100%',
                    transform: `translateY(${v.start}px)`,
                  }}
                >
                  {renderRow(row)}
                </div>
              );
            })}
          </div>
        </ScrollRegion>
      </Paper>

      <NameDialog
        opened={d?.type === 'create-folder'}
        title={inFolder(d?.type === 'create-folder' ? d.parentId : null, 'folder')}
        label="Folder name"
        submitLabel="Create folder"
        onClose={() => setDialog(null)}
        onSubmit={async (name) => {
          if (d?.type !== 'create-folder') return;
          const folder = await ops.createFolder(name, d.parentId);
          expand(d.parentId);
          notifySuccess(`Created folder ${folder.name}`);
        }}
      />
      {ops.createLeaf && (
        <NameDialog
          opened={d?.type === 'create-leaf'}
          title={inFolder(d?.type === 'create-leaf' ? d.folderId : null, ops.createLeaf.noun)}
          label={`${capitalized(ops.createLeaf.noun)} name`}
          submitLabel={`Create ${ops.createLeaf.noun}`}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            if (d?.type !== 'create-leaf' || !ops.createLeaf) return;
            const created = await ops.createLeaf.run(name, d.folderId);
            expand(d.folderId);
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
        onClose={() => setDialog(null)}
        onSubmit={async (name) => {
          if (d?.type !== 'rename') return;
          if (d.entry.kind === 'folder') await ops.renameFolder(d.entry.folder, name);
          else await ops.renameLeaf?.(d.entry.leaf, name);
          notifySuccess(`Renamed to ${name}`);
        }}
      />
      <TreeMoveDialog
        tree={tree}
        rootLabel={props.rootLabel}
        subject={d?.type === 'move-selected' ? { name: plural(selected.size, 'selected row') } : null}
        onClose={() => setDialog(null)}
        onMove={moveSelected}
      />
      <TreeMoveDialog
        tree={tree}
        rootLabel={props.rootLabel}
        subject={
          d?.type === 'move'
            ? {
                name: named,
                parentId: entryParent(tree, d.entry),
                ...(d.entry.kind === 'folder' ? { folderId: d.entry.folder.id } : {}),
              }
            : null
        }
        onClose={() => setDialog(null)}
        onMove={(folderId) => (d?.type === 'move' ? move(d.entry, folderId) : Promise.resolve())}
      />
      <ConfirmDialog
        opened={archive !== null}
        title={archive ? `Archive ${named}?` : 'Archive'}
        message={archive?.message}
        confirmLabel={archive?.confirmLabel ?? 'Archive'}
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (!archive) return;
          await archive.run();
          notifySuccess(archive.done(named));
        }}
      />
    </Stack>
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
