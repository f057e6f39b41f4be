import { ActionIcon, Badge, Box, Button, Group, Loader, Menu, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { useIsMutating } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FolderIcon } from '../../../components/icons';
import { QueryError } from '../../../components/query-error';
import { ScrollRegion } from '../../../components/scroll-region';
import { useOrg } from '../../../lib/authorization';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { keyBetween } from '../../../lib/sort-key';
import { NameDialog } from '../../projects/components/name-dialog';
import { useArchiveLibraryFolder } from '../api/archive-library-folder';
import { useCreateLibraryFolder } from '../api/create-library-folder';
import { useAgentLibrary } from '../api/get-agent-library';
import { useAgentRoles } from '../api/get-agent-roles';
import { useAgentSkills } from '../api/get-agent-skills';
import { useUpdateLibraryFolder } from '../api/update-library-folder';
import { type LibraryItem, LibraryMoveDialog } from './library-move-dialog';
import { buildLibrary, folderPath, type LibraryFolder, type Row, visibleRows } from './library-tree';
import { useLibraryMove } from './use-library-move';

type Dialog =
  | { type: 'create'; parentId: string | null }
  | { type: 'rename'; folder: LibraryFolder }
  | { type: 'move'; item: LibraryItem }
  | { type: 'archive'; folder: LibraryFolder };

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const ROW_HEIGHT = 44;

const itemOf = (row: Row): LibraryItem =>
  row.kind === 'folder'
    ? { kind: 'folder', id: row.folder.id, name: row.folder.name, folderId: row.folder.parentId }
    : row.kind === 'role'
      ? { kind: 'role', id: row.role.roleId, name: row.role.label, folderId: row.role.libraryFolderId }
      : { kind: 'skill', id: row.skill.name, name: row.skill.name, folderId: row.skill.libraryFolderId };

/**
 * The agent library: folders that group the organization's roles and skills, separate from the
 * project folders and under their rules (no cycles, archive only when empty). Roles and skills
 * move between folders here or from their own pages.
 */
export function LibraryExplorer() {
  const { org } = useOrg();
  const orgSlug = org.slug;
  const base = `/o/${encodeURIComponent(orgSlug)}/agents`;
  const library = useAgentLibrary(orgSlug);
  const roles = useAgentRoles(orgSlug);
  const skills = useAgentSkills(orgSlug);
  const allRoles = roles.data?.roles ?? [];
  const lib = useMemo(
    () => buildLibrary(library.data?.folders, roles.data?.roles, skills.data?.skills),
    [library.data, roles.data, skills.data],
  );
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const rows = useMemo(() => visibleRows(lib, expanded), [lib, expanded]);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const saving = useIsMutating() > 0;
  const createFolder = useCreateLibraryFolder();
  const updateFolder = useUpdateLibraryFolder();
  const archiveFolder = useArchiveLibraryFolder();
  const move = useLibraryMove(lib, allRoles);

  const toggle = (id: string) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  /** Up or down among its siblings: a sort key between the new neighbours, or renumber them all. */
  const reorder = async (folder: LibraryFolder, direction: -1 | 1) => {
    const siblings = lib.childFolders.get(folder.parentId) ?? [];
    const index = siblings.findIndex((f) => f.id === folder.id);
    const slot = index + direction;
    if (index < 0 || slot < 0 || slot >= siblings.length) return;
    const others = siblings.filter((f) => f.id !== folder.id);
    const key = keyBetween(others[slot - 1]?.sortKey ?? null, others[slot]?.sortKey ?? null);
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

  const error = library.error ?? roles.error ?? skills.error;
  if (error) return <QueryError error={error} />;

  const renderRow = (row: Row) => {
    const item = itemOf(row);
    const pad = 8 + row.depth * 20;
    if (row.kind !== 'folder') {
      const isRole = row.kind === 'role';
      const disabled = isRole ? row.role.disabledAt : row.skill.disabledAt;
      return (
        <Group
          key={`${row.kind}:${item.id}`}
          gap="xs"
          wrap="nowrap"
          mih={ROW_HEIGHT}
          pl={pad}
          pr={8}
          data-testid={`row-${row.kind}-${item.id}`}
          style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
        >
          <Box w={24} />
          <Badge size="sm" variant={isRole ? 'light' : 'outline'} w={52} style={{ flexShrink: 0 }}>
            {row.kind}
          </Badge>
          <Box miw={0} style={{ flex: 1 }}>
            <Text size="sm" truncate>
              {item.name}
              {isRole && (
                <Text span size="xs" c="dimmed" ff="monospace">
                  {'  '}
                  {row.role.roleId}
                </Text>
              )}
              {!isRole && (
                <Text span size="xs" c="dimmed">
                  {'  '}
                  {row.skill.version}
                </Text>
              )}
            </Text>
          </Box>
          {disabled && (
            <Badge size="sm" color="gray" variant="outline">
              disabled
            </Badge>
          )}
          <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${row.kind} ${item.name}`}>
                <span aria-hidden="true">⋯</span>
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => setDialog({ type: 'move', item })}>Move to folder…</Menu.Item>
              <Menu.Item component={Link} to={`${base}/${isRole ? 'roles' : 'skills'}`}>
                {isRole ? 'Open Agent roles' : 'Open Agent skills'}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      );
    }
    const folder = row.folder;
    const open = expanded.has(folder.id);
    const siblings = lib.childFolders.get(folder.parentId) ?? [];
    const position = siblings.findIndex((f) => f.id === folder.id);
    const subfolders = lib.childFolders.get(folder.id)?.length ?? 0;
    return (
      <Group
        key={`folder:${folder.id}`}
        gap="xs"
        wrap="nowrap"
        mih={ROW_HEIGHT}
        pl={pad}
        pr={8}
        data-testid={`row-folder-${folder.name}`}
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <UnstyledButton
          onClick={() => toggle(folder.id)}
          aria-expanded={open}
          aria-label={`${open ? 'Collapse' : 'Expand'} ${folder.name}`}
          w={24}
          ta="center"
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
        </UnstyledButton>
        <FolderIcon />
        <Text size="sm" fw={500} truncate miw={0} style={{ flex: 1 }}>
          {folder.name}
        </Text>
        <Text size="xs" c="dimmed" ta="right">
          {plural(subfolders, 'folder')} · {plural(folder.roleCount, 'role')} · {plural(folder.skillCount, 'skill')}
        </Text>
        <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Actions for folder ${folder.name}`}>
              <span aria-hidden="true">⋯</span>
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => setDialog({ type: 'create', parentId: folder.id })}>New folder inside</Menu.Item>
            <Menu.Item onClick={() => setDialog({ type: 'rename', folder })}>Rename</Menu.Item>
            <Menu.Item onClick={() => setDialog({ type: 'move', item })}>Move to…</Menu.Item>
            <Menu.Item disabled={position <= 0} onClick={() => reorder(folder, -1)}>
              Move up
            </Menu.Item>
            <Menu.Item disabled={position < 0 || position >= siblings.length - 1} onClick={() => reorder(folder, 1)}>
              Move down
            </Menu.Item>
            <Menu.Item onClick={() => setDialog({ type: 'archive', folder })}>Archive…</Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    );
  };

  const d = dialog;
  const pending = library.isPending || roles.isPending || skills.isPending;
  const archiving = d?.type === 'archive' ? d.folder : null;
  const holds = archiving
    ? [
        plural(lib.childFolders.get(archiving.id)?.length ?? 0, 'folder'),
        plural(archiving.roleCount, 'role'),
        plural(archiving.skillCount, 'skill'),
      ].join(', ')
    : '';
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Group wrap="wrap">
          <Button onClick={() => setDialog({ type: 'create', parentId: null })}>New folder</Button>
          <Button variant="default" onClick={() => setExpanded(new Set(lib.folders.keys()))}>
            Expand all
          </Button>
          <Button variant="default" onClick={() => setExpanded(new Set())}>
            Collapse all
          </Button>
        </Group>
        {saving && <Loader size="sm" aria-label="Saving" />}
      </Group>
      <Text size="sm" c="dimmed">
        {pending
          ? 'Loading…'
          : `${plural(lib.folders.size, 'folder')}, ${plural(allRoles.length, 'role')}, ` +
            `${plural(skills.data?.skills.length ?? 0, 'skill')}. ` +
            'Folders group roles and skills for people; sessions and bindings do not depend on them.'}
      </Text>
      <Paper withBorder>
        <ScrollRegion label="Library folders, roles and skills" style={{ maxHeight: '70vh' }}>
          {rows.length === 0 && !pending && (
            <Text p="md" c="dimmed">
              The library is empty: create a folder, a role or a skill.
            </Text>
          )}
          {rows.map(renderRow)}
        </ScrollRegion>
      </Paper>

      <NameDialog
        opened={d?.type === 'create'}
        title={d?.type === 'create' && d.parentId ? `New folder in ${folderPath(lib, d.parentId)}` : 'New folder'}
        label="Folder name"
        submitLabel="Create folder"
        onClose={() => setDialog(null)}
        onSubmit={async (name) => {
          if (d?.type !== 'create') return;
          const folder = await createFolder.mutateAsync({
            params: { path: { orgSlug } },
            body: { name, ...(d.parentId ? { parentId: d.parentId } : {}) },
          });
          if (d.parentId) setExpanded((prev) => new Set(prev).add(d.parentId!));
          notifySuccess(`Created folder ${folder.name}`);
        }}
      />
      <NameDialog
        opened={d?.type === 'rename'}
        title={d?.type === 'rename' ? `Rename ${d.folder.name}` : 'Rename'}
        label="New name"
        initial={d?.type === 'rename' ? d.folder.name : ''}
        submitLabel="Rename"
        onClose={() => setDialog(null)}
        onSubmit={async (name) => {
          if (d?.type !== 'rename') return;
          await updateFolder.mutateAsync({ params: { path: { orgSlug, folderId: d.folder.id } }, body: { name } });
          notifySuccess(`Renamed to ${name}`);
        }}
      />
      <LibraryMoveDialog
        lib={lib}
        item={d?.type === 'move' ? d.item : null}
        onClose={() => setDialog(null)}
        onMove={async (item, folderId) => {
          await move(item, folderId);
          if (folderId) setExpanded((prev) => new Set(prev).add(folderId));
        }}
      />
      <ConfirmDialog
        opened={d?.type === 'archive'}
        title={archiving ? `Archive ${archiving.name}?` : 'Archive'}
        message={
          `The folder leaves the library. Only an empty folder can be archived (disabled roles and skills ` +
          `count too): it holds ${holds}.`
        }
        confirmLabel="Archive folder"
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (!archiving) return;
          await archiveFolder.mutateAsync({ params: { path: { orgSlug, folderId: archiving.id } } });
          notifySuccess(`Archived folder ${archiving.name}`);
        }}
      />
    </Stack>
  );
}
