import { formatDateTime } from '../../../lib/format';
import { ActionIcon, Badge, Button, Group, Menu, Stack, Text } from '@mantine/core';
import { ListToolbar } from './list-toolbar';
import { useDeferredValue, useMemo, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { QueryError } from '../../../components/query-error';
import { type Column, VirtualTable } from '../../../components/virtual-table';
import { useOrg } from '../../../lib/authorization';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useAgentLibrary } from '../api/get-agent-library';
import { useAgentModels } from '../api/get-agent-models';
import { useAgentRoles } from '../api/get-agent-roles';
import { usePutAgentRole } from '../api/put-agent-role';
import { useUpdateAgentRole } from '../api/update-agent-role';
import { folderPath } from '../../../lib/folder-tree';
import { buildLibrary, type Role } from './library-tree';
import { RoleFormDialog } from './role-form-dialog';
import { reorderPlan, roleBody } from './role-order';
import { RoleSkillsDialog } from './role-skills-dialog';

type Dialog = { type: 'edit'; role: Role | null } | { type: 'skills'; role: Role } | { type: 'disable'; role: Role };

const DEFAULT_CANNOT_DISABLE = 'The default role cannot be disabled: make another role the default first.';

function toolsText(tools: string[] | null) {
  if (tools === null)
    return (
      <Text size="sm" c="dimmed">
        runtime default
      </Text>
    );
  if (tools.length === 0) return <Text size="sm">none</Text>;
  return (
    <Text size="sm" lineClamp={2} title={tools.join(', ')}>
      {tools.join(', ')}
    </Text>
  );
}

/**
 * The organization's roles in their order (`sortOrder`, then label), disabled ones included.
 * Create and edit in a dialog; bind skills; move up or down; disable with the consequence said.
 */
export function RolesList() {
  const { org } = useOrg();
  const orgSlug = org.slug;
  const roles = useAgentRoles(orgSlug);
  const models = useAgentModels(orgSlug);
  const library = useAgentLibrary(orgSlug);
  const lib = useMemo(() => buildLibrary(library.data?.folders, [], []), [library.data]);
  const update = useUpdateAgentRole();
  const put = usePutAgentRole();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [search, setSearch] = useState('');
  const needle = useDeferredValue(search.trim().toLowerCase());
  const all = roles.data?.roles ?? [];
  const rows = useMemo(
    () =>
      needle
        ? all.filter((r) => r.label.toLowerCase().includes(needle) || r.roleId.toLowerCase().includes(needle))
        : all,
    [all, needle],
  );
  const modelLabel = (id: string) => models.data?.models.find((m) => m.id === id)?.label ?? id;

  const move = async (role: Role, direction: -1 | 1) => {
    const plan = reorderPlan(all, all.indexOf(role), direction);
    try {
      for (const change of plan)
        await put.mutateAsync({
          params: { path: { orgSlug, roleId: change.role.roleId } },
          body: roleBody(change.role, { sortOrder: change.sortOrder }),
        });
      notifySuccess(`Moved ${role.label} ${direction < 0 ? 'up' : 'down'}`);
    } catch (e) {
      notifyError(e, `${role.label} was not moved`);
    }
  };

  const enable = (role: Role) =>
    update.mutate(
      { params: { path: { orgSlug, roleId: role.roleId } }, body: { disabled: false } },
      {
        onSuccess: (r) => notifySuccess(`Enabled role ${r.label}`),
        onError: (e) => notifyError(e, `${role.label} was not enabled`),
      },
    );

  const columns: Column<Role>[] = [
    {
      key: 'order',
      header: 'Order',
      width: 70,
      render: (r) => (
        <Text size="sm" c="dimmed" title={`sortOrder ${r.sortOrder}`}>
          {all.indexOf(r) + 1}
        </Text>
      ),
    },
    {
      key: 'role',
      header: 'Role',
      render: (r) => (
        <Stack gap={2}>
          <Group gap={6} wrap="wrap">
            <Text size="sm" fw={500}>
              {r.label}
            </Text>
            {r.isDefault && (
              <Badge size="sm" variant="light">
                default
              </Badge>
            )}
            {r.disabledAt && (
              <Badge size="sm" color="gray" variant="outline" title={formatDateTime(r.disabledAt)}>
                disabled
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed" ff="monospace">
            {r.roleId}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'model',
      header: 'Model',
      width: 170,
      render: (r) =>
        r.defaultModel ? (
          <Text size="sm">{modelLabel(r.defaultModel)}</Text>
        ) : (
          <Text size="sm" c="dimmed">
            runtime default
          </Text>
        ),
    },
    { key: 'tools', wideOnly: true, header: 'Tools', width: 160, render: (r) => toolsText(r.tools) },
    {
      key: 'skills',
      wideOnly: true,
      header: 'Skills',
      width: 180,
      render: (r) =>
        r.skillNames.length ? (
          <Group gap={4}>
            {r.skillNames.map((n) => (
              <Badge key={n} size="sm" variant="default" tt="none">
                {n}
              </Badge>
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            none
          </Text>
        ),
    },
    {
      key: 'folder',
      wideOnly: true,
      header: 'Folder',
      width: 140,
      render: (r) => <Text size="sm">{folderPath(lib, r.libraryFolderId)}</Text>,
    },
    {
      key: 'actions',
      header: 'Actions',
      width: 60,
      render: (r) => {
        const index = all.indexOf(r);
        return (
          <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${r.label}`}>
                <span aria-hidden="true">⋯</span>
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => setDialog({ type: 'edit', role: r })}>Edit…</Menu.Item>
              <Menu.Item onClick={() => setDialog({ type: 'skills', role: r })}>Skills…</Menu.Item>
              <Menu.Item disabled={needle !== '' || index <= 0} onClick={() => move(r, -1)}>
                Move up
              </Menu.Item>
              <Menu.Item disabled={needle !== '' || index >= all.length - 1} onClick={() => move(r, 1)}>
                Move down
              </Menu.Item>
              {r.disabledAt ? (
                <Menu.Item onClick={() => enable(r)}>Enable</Menu.Item>
              ) : (
                <Menu.Item disabled={r.isDefault} onClick={() => setDialog({ type: 'disable', role: r })}>
                  Disable…
                </Menu.Item>
              )}
              {r.isDefault && !r.disabledAt && (
                <Text size="xs" c="dimmed" px="sm" pb={6} maw={240}>
                  {DEFAULT_CANNOT_DISABLE}
                </Text>
              )}
            </Menu.Dropdown>
          </Menu>
        );
      },
    },
  ];

  if (roles.isError) return <QueryError error={roles.error} />;
  const d = dialog;
  return (
    <Stack>
      <ListToolbar
        action={<Button onClick={() => setDialog({ type: 'edit', role: null })}>New role</Button>}
        searchLabel="Search roles"
        search={search}
        onSearch={setSearch}
      />
      <Text size="sm" c="dimmed" aria-live="polite">
        {roles.isPending
          ? 'Loading…'
          : `${rows.length} of ${all.length} roles, by order, then label` +
            (needle ? ' (clear the search to reorder).' : '.')}
      </Text>
      <VirtualTable
        label="Agent roles"
        rows={rows}
        columns={columns}
        rowKey={(r) => r.roleId}
        minWidth={900}
        empty={needle ? 'No role matches.' : 'No role yet: create the first one.'}
      />
      <RoleFormDialog
        opened={d?.type === 'edit'}
        role={d?.type === 'edit' ? d.role : null}
        roles={all}
        onClose={() => setDialog(null)}
      />
      <RoleSkillsDialog
        opened={d?.type === 'skills'}
        role={d?.type === 'skills' ? d.role : null}
        onClose={() => setDialog(null)}
      />
      <ConfirmDialog
        opened={d?.type === 'disable'}
        title={d?.type === 'disable' ? `Disable ${d.role.label}?` : 'Disable'}
        message={
          d?.type === 'disable'
            ? `Every open session that runs as ${d.role.label} (${d.role.roleId}) is archived now, and no new ` +
              'session can use the role until it is enabled again. It keeps its skills and can still be edited.'
            : ''
        }
        confirmLabel="Disable role"
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (d?.type !== 'disable') return;
          const r = await update.mutateAsync({
            params: { path: { orgSlug, roleId: d.role.roleId } },
            body: { disabled: true },
          });
          notifySuccess(`Disabled role ${r.label}; its open sessions were archived`);
        }}
      />
    </Stack>
  );
}
