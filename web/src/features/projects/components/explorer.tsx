import {
  ActionIcon,
  Anchor,
  Badge,
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
import { useDeferredValue, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { BulkProgress, BulkSummary } from '../../../components/bulk-summary';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FolderMoveDialog, TOP_LEVEL } from '../../../components/folder-move-dialog';
import { FileIcon, FolderIcon } from '../../../components/icons';
import { QueryError } from '../../../components/query-error';
import { ScrollRegion } from '../../../components/scroll-region';
import { useOrg } from '../../../lib/authorization';
import { useBulkRun } from '../../../lib/bulk';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { keyBetween } from '../../../lib/sort-key';
import { useArchiveFolder } from '../api/archive-folder';
import { useArchiveProject } from '../api/archive-project';
import { useCreateFolder } from '../api/create-folder';
import { useCreateProject } from '../api/create-project';
import { useExplorer } from '../api/get-explorer';
import { useMoveProject } from '../api/move-project';
import { useRenameProject } from '../api/rename-project';
import { useUpdateFolder } from '../api/update-folder';
import { MoveDialog } from './move-dialog';
import { NameDialog } from './name-dialog';
import { buildTree, type Folder, folderPath, matchingRows, type Row, subtreeIds, visibleRows } from './tree-model';

type Item = { kind: 'folder' | 'project'; id: string; name: string; parentId: string | null };
type Dialog =
  | { type: 'create-folder'; parentId: string | null }
  | { type: 'create-project'; folderId: string | null }
  | { type: 'rename'; item: Item }
  | { type: 'move'; item: Item }
  | { type: 'move-selected' }
  | { type: 'archive'; item: Item };

const ROW_HEIGHT = 44;
const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const keyOf = (item: Item) => `${item.kind}:${item.id}`;
const itemOf = (row: Row): Item =>
  row.kind === 'folder'
    ? { kind: 'folder', id: row.folder.id, name: row.folder.name, parentId: row.folder.parentId }
    : { kind: 'project', id: row.project.id, name: row.project.name, parentId: row.project.folderId };

/**
 * The organization's folder tree with its projects. Loaded once; only expanded folders
 * contribute rows and only the rows in view are rendered, so 20,000 projects stay fast.
 * Moves work by drag and drop onto a folder (or the top-level zone) and by "Move to…".
 */
export function Explorer() {
  const { org } = useOrg();
  const base = `/o/${encodeURIComponent(org.slug)}`;
  const explorer = useExplorer(org.slug);
  const tree = useMemo(() => buildTree(explorer.data), [explorer.data]);
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const [search, setSearch] = useState('');
  const needle = useDeferredValue(search.trim());
  const rows = useMemo(
    () => (needle ? matchingRows(explorer.data, needle) : visibleRows(tree, expanded)),
    [tree, explorer.data, expanded, needle],
  );
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [dragging, setDragging] = useState<Item | null>(null);
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const saving = useIsMutating() > 0;

  const createFolder = useCreateFolder();
  const createProject = useCreateProject();
  const updateFolder = useUpdateFolder();
  const archiveFolder = useArchiveFolder();
  const renameProject = useRenameProject();
  const moveProject = useMoveProject();
  const archiveProject = useArchiveProject();
  const orgSlug = org.slug;

  const toggle = (id: string) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const [selected, setSelected] = useState<Map<string, Item>>(() => new Map());
  const bulk = useBulkRun();
  const toggleSelected = (item: Item) =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (next.has(keyOf(item))) next.delete(keyOf(item));
      else next.set(keyOf(item), item);
      return next;
    });
  /** Every folder by its path, and the top level: where the selected rows may go (the server decides). */
  const destinations = useMemo(
    () => [
      { value: TOP_LEVEL, label: '/ (top level)' },
      ...[...tree.folders.values()]
        .map((f) => ({ value: f.id, label: folderPath(tree, f.id) }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    ],
    [tree],
  );

  /** The one request that moves a row, without telling anyone. */
  const moveRequest = async (item: Item, folderId: string | null) => {
    if (item.kind === 'folder') {
      await updateFolder.mutateAsync({
        params: { path: { orgSlug, folderId: item.id } },
        body: { parentId: folderId },
      });
    } else {
      await moveProject.mutateAsync({ params: { path: { orgSlug, projectId: item.id } }, body: { folderId } });
    }
  };

  const move = async (item: Item, folderId: string | null) => {
    await moveRequest(item, folderId);
    if (folderId) setExpanded((prev) => new Set(prev).add(folderId));
    notifySuccess(`Moved ${item.name} to ${folderPath(tree, folderId)}`);
  };

  /** Moves every selected row, one request each; the summary says which moved and which were refused. */
  const moveSelected = async (folderId: string | null) => {
    const items = [...selected.values()];
    const outcomes = await bulk.run(
      `Moved to ${folderPath(tree, folderId)}`,
      items,
      (item) => ({ key: keyOf(item), label: item.name }),
      (item) => moveRequest(item, folderId),
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
    if (!dragging || dragging.parentId === folderId) return false;
    return !(dragging.kind === 'folder' && folderId !== null && subtreeIds(tree, dragging.id).has(folderId));
  };

  const drop = (folderId: string | null) => {
    const item = dragging;
    setDragging(null);
    setDropTarget(null);
    if (item && canDropInto(folderId)) move(item, folderId).catch((e) => notifyError(e, `${item.name} was not moved`));
  };

  /** Up or down among its siblings: a sort key between the new neighbours, or renumber them all. */
  const reorder = async (folder: Folder, direction: -1 | 1) => {
    const siblings = tree.childFolders.get(folder.parentId) ?? [];
    const index = siblings.findIndex((f) => f.id === folder.id);
    const target = index + direction;
    if (index < 0 || target < 0 || target >= siblings.length) return;
    const others = siblings.filter((f) => f.id !== folder.id);
    const slot = direction < 0 ? target : target; // position among the others
    const before = others[slot - 1]?.sortKey ?? null;
    const after = others[slot]?.sortKey ?? null;
    const key = keyBetween(before, after);
    try {
      if (key !== null) {
        await updateFolder.mutateAsync({ params: { path: { orgSlug, folderId: folder.id } }, body: { sortKey: key } });
      } else {
        const order = [...others.slice(0, slot), folder, ...others.slice(slot)];
        for (const [i, f] of order.entries()) {
          const sortKey = String((i + 1) * 1000).padStart(10, '0');
          if (f.sortKey !== sortKey)
            await updateFolder.mutateAsync({ params: { path: { orgSlug, folderId: f.id } }, body: { sortKey } });
        }
      }
      notifySuccess(`Moved ${folder.name} ${direction < 0 ? 'up' : 'down'}`);
    } catch (e) {
      notifyError(e, `${folder.name} was not reordered`);
    }
  };

  const scrollRef = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 15,
    getItemKey: (i) => {
      const r = rows[i]!;
      return r.kind === 'folder' ? `f:${r.folder.id}` : `p:${r.project.id}`;
    },
  });

  if (explorer.isError) return <QueryError error={explorer.error} />;

  const renderRow = (row: Row) => {
    const item = itemOf(row);
    const isFolder = row.kind === 'folder';
    const open = isFolder && expanded.has(row.folder.id);
    const siblings = isFolder ? (tree.childFolders.get(row.folder.parentId) ?? []) : [];
    const position = isFolder ? siblings.findIndex((f) => f.id === row.folder.id) : -1;
    const highlighted = isFolder && dropTarget === row.folder.id;
    return (
      <Group
        gap="xs"
        wrap="nowrap"
        h={ROW_HEIGHT}
        pl={needle ? 8 : 8 + row.depth * 20}
        pr={8}
        draggable
        data-testid={`row-${item.kind}-${item.name}`}
        style={{
          borderBottom: '1px solid var(--mantine-color-default-border)',
          background: highlighted ? 'var(--mantine-primary-color-light)' : undefined,
          outline: highlighted ? '2px dashed var(--mantine-primary-color-filled)' : undefined,
          cursor: 'grab',
        }}
        onDragStart={(e) => {
          e.dataTransfer.effectAllowed = 'move';
          e.dataTransfer.setData('text/plain', item.name);
          setDragging(item);
        }}
        onDragEnd={() => {
          setDragging(null);
          setDropTarget(null);
        }}
        {...(isFolder
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
          : {})}
      >
        <Checkbox
          aria-label={`Select ${item.name}`}
          checked={selected.has(keyOf(item))}
          onChange={() => toggleSelected(item)}
        />
        {isFolder ? (
          <UnstyledButton
            onClick={() => toggle(row.folder.id)}
            aria-expanded={open}
            aria-label={`${open ? 'Collapse' : 'Expand'} ${row.folder.name}`}
            w={24}
            ta="center"
          >
            <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          </UnstyledButton>
        ) : (
          <Box w={24} />
        )}
        {isFolder ? <FolderIcon /> : <FileIcon />}
        <Box miw={0} style={{ flex: 1 }}>
          {isFolder ? (
            <Text size="sm" fw={500} truncate>
              {row.folder.name}
              {needle && (
                <Text span size="xs" c="dimmed">
                  {'  '}in {folderPath(tree, row.folder.parentId)}
                </Text>
              )}
            </Text>
          ) : (
            <Text size="sm" truncate>
              <Anchor component={Link} to={`${base}/projects/${encodeURIComponent(row.project.id)}`}>
                {row.project.name}
              </Anchor>
              {needle && (
                <Text span size="xs" c="dimmed">
                  {'  '}in {folderPath(tree, row.project.folderId)}
                </Text>
              )}
            </Text>
          )}
        </Box>
        {isFolder ? (
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {plural(row.folder.childFolderCount, 'folder')} · {plural(row.folder.projectCount, 'project')}
          </Text>
        ) : (
          row.project.binding && (
            <Badge variant="default" size="sm">
              chat
            </Badge>
          )
        )}
        <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${item.name}`}>
              <span aria-hidden="true">⋯</span>
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {isFolder ? (
              <>
                <Menu.Item onClick={() => setDialog({ type: 'create-folder', parentId: row.folder.id })}>
                  New folder inside
                </Menu.Item>
                <Menu.Item onClick={() => setDialog({ type: 'create-project', folderId: row.folder.id })}>
                  New project inside
                </Menu.Item>
                <Menu.Item onClick={() => setDialog({ type: 'rename', item })}>Rename</Menu.Item>
                <Menu.Item onClick={() => setDialog({ type: 'move', item })}>Move to…</Menu.Item>
                <Menu.Item disabled={position <= 0} onClick={() => reorder(row.folder, -1)}>
                  Move up
                </Menu.Item>
                <Menu.Item
                  disabled={position < 0 || position >= siblings.length - 1}
                  onClick={() => reorder(row.folder, 1)}
                >
                  Move down
                </Menu.Item>
                <Menu.Item onClick={() => setDialog({ type: 'archive', item })}>Archive</Menu.Item>
              </>
            ) : (
              <>
                <Menu.Item component={Link} to={`${base}/projects/${encodeURIComponent(row.project.id)}`}>
                  Open
                </Menu.Item>
                <Menu.Item onClick={() => setDialog({ type: 'rename', item })}>Rename</Menu.Item>
                <Menu.Item onClick={() => setDialog({ type: 'move', item })}>Move to…</Menu.Item>
                <Menu.Item onClick={() => setDialog({ type: 'archive', item })}>Archive</Menu.Item>
              </>
            )}
          </Menu.Dropdown>
        </Menu>
      </Group>
    );
  };

  const d = dialog;
  const rootDropActive = dropTarget === '__root__';
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Group wrap="wrap">
          <Button onClick={() => setDialog({ type: 'create-folder', parentId: null })}>New folder</Button>
          <Button variant="default" onClick={() => setDialog({ type: 'create-project', folderId: null })}>
            New project
          </Button>
          <Button
            variant="subtle"
            onClick={() => setExpanded(new Set(tree.folders.keys()))}
            disabled={tree.folders.size > 2000}
          >
            Expand all
          </Button>
          <Button variant="subtle" onClick={() => setExpanded(new Set())}>
            Collapse all
          </Button>
        </Group>
        <Group gap="xs">
          {saving && <Loader size="sm" aria-label="Saving" />}
          <TextInput
            aria-label="Search folders and projects"
            placeholder="Search folders and projects"
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            w={260}
          />
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        {explorer.isPending
          ? 'Loading…'
          : `${explorer.data.folders.length} folders, ${explorer.data.projects.length} projects` +
            `${needle ? ` · ${rows.length} match` : ''}. ` +
            'Drag a row onto a folder to move it, or use its “Move to…” action.'}
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
      <Paper
        withBorder
        p="xs"
        ta="center"
        data-testid="drop-root"
        style={{
          borderStyle: 'dashed',
          background: rootDropActive ? 'var(--mantine-primary-color-light)' : undefined,
        }}
        onDragOver={(e) => {
          if (!canDropInto(null)) return;
          e.preventDefault();
          setDropTarget('__root__');
        }}
        onDragLeave={() => setDropTarget((t) => (t === '__root__' ? null : t))}
        onDrop={(e) => {
          e.preventDefault();
          drop(null);
        }}
      >
        <Text size="xs" c="dimmed">
          Drop here to move to the top level
        </Text>
      </Paper>
      <Paper withBorder>
        <ScrollRegion ref={scrollRef} label="Folders and projects" style={{ maxHeight: '65vh' }}>
          {rows.length === 0 && !explorer.isPending && (
            <Text p="md" c="dimmed">
              {needle ? 'Nothing matches.' : 'No folders or projects yet.'}
            </Text>
          )}
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((v) => (
              <div
                key={v.key}
                style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${v.start}px)` }}
              >
                {renderRow(rows[v.index]!)}
              </div>
            ))}
          </div>
        </ScrollRegion>
      </Paper>

      <NameDialog
        opened={d?.type === 'create-folder'}
        title={
          d?.type === 'create-folder' && d.parentId ? `New folder in ${folderPath(tree, d.parentId)}` : 'New folder'
        }
        label="Folder name"
        submitLabel="Create folder"
        onClose={() => setDialog(null)}
        onSubmit={async (name) => {
          if (d?.type !== 'create-folder') return;
          const folder = await createFolder.mutateAsync({
            params: { path: { orgSlug } },
            body: { name, ...(d.parentId ? { parentId: d.parentId } : {}) },
          });
          if (d.parentId) setExpanded((prev) => new Set(prev).add(d.parentId!));
          notifySuccess(`Created folder ${folder.name}`);
        }}
      />
      <NameDialog
        opened={d?.type === 'create-project'}
        title={
          d?.type === 'create-project' && d.folderId ? `New project in ${folderPath(tree, d.folderId)}` : 'New project'
        }
        label="Project name"
        submitLabel="Create project"
        onClose={() => setDialog(null)}
        onSubmit={async (name) => {
          if (d?.type !== 'create-project') return;
          const project = await createProject.mutateAsync({
            params: { path: { orgSlug } },
            body: { name, ...(d.folderId ? { folderId: d.folderId } : {}) },
          });
          if (d.folderId) setExpanded((prev) => new Set(prev).add(d.folderId!));
          notifySuccess(`Created project ${project.name}`);
        }}
      />
      <NameDialog
        opened={d?.type === 'rename'}
        title={d?.type === 'rename' ? `Rename ${d.item.name}` : 'Rename'}
        label="New name"
        initial={d?.type === 'rename' ? d.item.name : ''}
        submitLabel="Rename"
        onClose={() => setDialog(null)}
        onSubmit={async (name) => {
          if (d?.type !== 'rename') return;
          if (d.item.kind === 'folder') {
            await updateFolder.mutateAsync({ params: { path: { orgSlug, folderId: d.item.id } }, body: { name } });
          } else {
            await renameProject.mutateAsync({ params: { path: { orgSlug, projectId: d.item.id } }, body: { name } });
          }
          notifySuccess(`Renamed to ${name}`);
        }}
      />
      <MoveDialog
        opened={d?.type === 'move'}
        tree={tree}
        item={d?.type === 'move' ? d.item : null}
        onClose={() => setDialog(null)}
        onMove={(folderId) => (d?.type === 'move' ? move(d.item, folderId) : Promise.resolve())}
      />
      <FolderMoveDialog
        opened={d?.type === 'move-selected'}
        name={plural(selected.size, 'selected row')}
        currentPath={undefined}
        options={destinations}
        onClose={() => setDialog(null)}
        onMove={moveSelected}
      />
      <ConfirmDialog
        opened={d?.type === 'archive'}
        title={d?.type === 'archive' ? `Archive ${d.item.name}?` : 'Archive'}
        message={
          d?.type === 'archive' && d.item.kind === 'folder'
            ? 'The folder leaves the explorer. Only an empty folder can be archived: ' +
              'move or archive what it holds first.'
            : 'The project leaves the explorer and My projects; its page stays readable.'
        }
        confirmLabel="Archive"
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (d?.type !== 'archive') return;
          if (d.item.kind === 'folder')
            await archiveFolder.mutateAsync({ params: { path: { orgSlug, folderId: d.item.id } } });
          else await archiveProject.mutateAsync({ params: { path: { orgSlug, projectId: d.item.id } } });
          notifySuccess(`Archived ${d.item.name}`);
        }}
      />
    </Stack>
  );
}
