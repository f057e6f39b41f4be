import { formatDateTime } from '../../../lib/format';
import { ActionIcon, Badge, Button, CopyButton, Group, Menu, Stack, Text, Tooltip } from '@mantine/core';
import { ListToolbar } from './list-toolbar';
import { useDeferredValue, useMemo, useState } from 'react';
import { TreeMoveDialog } from '../../../components/folder-explorer/tree-move-dialog';
import { QueryError } from '../../../components/query-error';
import { type Column, VirtualTable } from '../../../components/virtual-table';
import { useOrg } from '../../../lib/authorization';
import { folderPath } from '../../../lib/folder-tree';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useAgentLibrary } from '../api/get-agent-library';
import { useAgentRoles } from '../api/get-agent-roles';
import { useAgentSkills } from '../api/get-agent-skills';
import { useUpdateAgentSkill } from '../api/update-agent-skill';
import { DisableSkillDialog } from './disable-skill-dialog';
import { InstallSkillDialog } from './install-skill-dialog';
import { buildLibrary, LIBRARY_ROOT, type Skill } from './library-tree';
import { RelabelSkillDialog } from './relabel-skill-dialog';
import { SkillFilesDialog } from './skill-files-dialog';
import { useLibraryMove } from './use-library-move';

type Dialog =
  | { type: 'install'; name: string | null }
  | { type: 'files'; skill: Skill }
  | { type: 'relabel'; skill: Skill }
  | { type: 'move'; skill: Skill }
  | { type: 'disable'; skill: Skill };

/** Two overlapping sheets, drawn inline (no icon font), hidden from assistive technology. */
function CopyIcon() {
  return (
    <svg
      width={14}
      height={14}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      aria-hidden="true"
    >
      <rect x="9" y="9" width="12" height="12" rx="2" />
      <path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1" />
    </svg>
  );
}

function Digest({ digest }: { digest: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Text size="xs" ff="monospace" title={digest}>
        {digest.slice(0, 12)}…
      </Text>
      <CopyButton value={digest}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy the full digest'}>
            <ActionIcon variant="subtle" color="gray" size="sm" onClick={copy} aria-label="Copy the full digest">
              {copied ? <span aria-hidden="true">✓</span> : <CopyIcon />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/** Every installed skill, disabled ones included, with its version, digest and the roles bound to it. */
export function SkillsList() {
  const { org } = useOrg();
  const orgSlug = org.slug;
  const skills = useAgentSkills(orgSlug);
  const roles = useAgentRoles(orgSlug);
  const library = useAgentLibrary(orgSlug);
  const allRoles = roles.data?.roles ?? [];
  const lib = useMemo(() => buildLibrary(library.data?.folders, [], []), [library.data]);
  const move = useLibraryMove();
  const update = useUpdateAgentSkill();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [search, setSearch] = useState('');
  const needle = useDeferredValue(search.trim().toLowerCase());
  const all = skills.data?.skills ?? [];
  const rows = useMemo(
    () =>
      needle ? all.filter((s) => s.name.includes(needle) || (s.description ?? '').toLowerCase().includes(needle)) : all,
    [all, needle],
  );
  const roleLabel = (id: string) => allRoles.find((r) => r.roleId === id)?.label ?? id;

  const enable = (skill: Skill) =>
    update.mutate(
      { params: { path: { orgSlug, name: skill.name } }, body: { disabled: false } },
      {
        onSuccess: () => notifySuccess(`Enabled ${skill.name}`),
        onError: (e) => notifyError(e, `${skill.name} was not enabled`),
      },
    );

  const columns: Column<Skill>[] = [
    {
      key: 'skill',
      header: 'Skill',
      render: (s) => (
        <Stack gap={2}>
          <Group gap={6} wrap="wrap">
            <Text size="sm" fw={500} ff="monospace">
              {s.name}
            </Text>
            {s.disabledAt && (
              <Badge size="sm" color="gray" variant="outline" title={formatDateTime(s.disabledAt)}>
                disabled
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed" lineClamp={2}>
            {s.description || 'No description'}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'version',
      wideOnly: true,
      header: 'Version',
      width: 100,
      render: (s) => <Text size="sm">{s.version}</Text>,
    },
    { key: 'digest', wideOnly: true, header: 'Digest', width: 150, render: (s) => <Digest digest={s.contentDigest} /> },
    {
      key: 'roles',
      wideOnly: true,
      header: 'Bound roles',
      width: 190,
      render: (s) =>
        s.boundRoleIds.length ? (
          <Group gap={4}>
            {s.boundRoleIds.map((id) => (
              <Badge key={id} size="sm" variant="default" tt="none" title={id}>
                {roleLabel(id)}
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
      width: 130,
      render: (s) => <Text size="sm">{folderPath(lib, s.libraryFolderId)}</Text>,
    },
    {
      key: 'actions',
      header: 'Actions',
      width: 70,
      render: (s) => (
        <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${s.name}`}>
              <span aria-hidden="true">⋯</span>
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => setDialog({ type: 'files', skill: s })}>View files…</Menu.Item>
            <Menu.Item onClick={() => setDialog({ type: 'install', name: s.name })}>Install new version…</Menu.Item>
            <Menu.Item onClick={() => setDialog({ type: 'relabel', skill: s })}>Relabel…</Menu.Item>
            <Menu.Item onClick={() => setDialog({ type: 'move', skill: s })}>Move to folder…</Menu.Item>
            {s.disabledAt ? (
              <Menu.Item onClick={() => enable(s)}>Enable</Menu.Item>
            ) : (
              <Menu.Item onClick={() => setDialog({ type: 'disable', skill: s })}>Disable…</Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
      ),
    },
  ];

  if (skills.isError) return <QueryError error={skills.error} />;
  const d = dialog;
  return (
    <Stack>
      <ListToolbar
        action={<Button onClick={() => setDialog({ type: 'install', name: null })}>Install skill</Button>}
        searchLabel="Search skills"
        search={search}
        onSearch={setSearch}
      />
      {roles.isError && <QueryError error={roles.error} title="The roles could not be loaded" />}
      <Text size="sm" c="dimmed" aria-live="polite">
        {skills.isPending ? 'Loading…' : `${rows.length} of ${all.length} skills`}
      </Text>
      <VirtualTable
        label="Agent skills"
        rows={rows}
        columns={columns}
        rowKey={(s) => s.name}
        minWidth={860}
        empty={needle ? 'No skill matches.' : 'No skill installed yet.'}
      />
      <InstallSkillDialog
        opened={d?.type === 'install'}
        fixedName={d?.type === 'install' ? d.name : null}
        skills={all}
        onClose={() => setDialog(null)}
      />
      <SkillFilesDialog skill={d?.type === 'files' ? d.skill : null} onClose={() => setDialog(null)} />
      <RelabelSkillDialog skill={d?.type === 'relabel' ? d.skill : null} onClose={() => setDialog(null)} />
      <TreeMoveDialog
        tree={lib}
        rootLabel={LIBRARY_ROOT}
        subject={d?.type === 'move' ? { name: d.skill.name, parentId: d.skill.libraryFolderId } : null}
        onClose={() => setDialog(null)}
        onMove={async (folderId) => {
          if (d?.type !== 'move') return;
          await move({ kind: 'leaf', leaf: { kind: 'skill', skill: d.skill } }, folderId);
          notifySuccess(`Moved ${d.skill.name} to ${folderPath(lib, folderId)}`);
        }}
      />
      <DisableSkillDialog
        skill={d?.type === 'disable' ? d.skill : null}
        roles={allRoles}
        onClose={() => setDialog(null)}
      />
    </Stack>
  );
}
