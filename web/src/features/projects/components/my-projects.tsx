import { formatDate } from '../../../lib/format';
import { Alert, Anchor, Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { NameDialog } from '../../../components/name-dialog';
import { QueryError } from '../../../components/query-error';
import { type Column, VirtualTable } from '../../../components/virtual-table';
import type { Schemas } from '../../../lib/api-client';
import { isOrgAdmin, useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useSettings } from '../../../lib/queries/get-settings';
import { useCreateProject } from '../api/create-project';
import { useMyProjects } from '../api/get-my-projects';
import { RequestAccess } from './access-requests';

type Project = Schemas['ExplorerProject'];

/** Why the person landed here instead of where they were going. */
function Notice() {
  const [params, setParams] = useSearchParams();
  const denied = params.get('denied');
  const notice = params.get('notice');
  if (!denied && notice !== 'admin-only') return null;
  const close = () => setParams({}, { replace: true });
  return (
    <Alert
      color="yellow"
      title="You were brought to My projects"
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={close}
      role="alert"
      data-testid="access-notice"
    >
      {denied ? (
        <Stack gap="sm">
          <Text size="sm">You have no access to that project. Here are the projects you can open.</Text>
          <RequestAccess projectId={denied} />
        </Stack>
      ) : (
        'That page is for organization admins (OWNER or ADMIN). Here are the projects you can open.'
      )}
    </Alert>
  );
}

export function MyProjects() {
  const { org } = useOrg();
  const base = `/o/${encodeURIComponent(org.slug)}`;
  const projects = useMyProjects(org.slug);
  const settings = useSettings(org.slug);
  const create = useCreateProject();
  const [creating, dialog] = useDisclosure(false);
  const [search, setSearch] = useState('');
  const rows = useMemo(() => {
    const n = search.trim().toLowerCase();
    return (projects.data?.projects ?? []).filter((p) => !n || p.name.toLowerCase().includes(n));
  }, [projects.data, search]);
  const mayCreate = isOrgAdmin(org.role) || settings.data?.membersCanCreateProjects === true;
  const columns: Column<Project>[] = [
    {
      key: 'name',
      header: 'Project',
      render: (p) => (
        <Anchor component={Link} to={`${base}/projects/${encodeURIComponent(p.id)}`} size="sm">
          {p.name}
        </Anchor>
      ),
    },
    {
      key: 'chat',
      header: 'Chat',
      render: (p) =>
        p.binding ? (
          <Badge variant="default" size="sm">
            {p.binding.chatId}
          </Badge>
        ) : (
          '—'
        ),
      width: 160,
    },
    {
      key: 'created',
      wideOnly: true,
      header: 'Created',
      render: (p) => formatDate(p.createdAt),
      width: 120,
    },
  ];
  return (
    <Stack>
      <Notice />
      <Text size="sm" c="dimmed" data-testid="my-teams">
        {org.teams.length === 0
          ? 'You are in no team here; projects reach you through grants to you.'
          : `Your teams: ${org.teams.map((team) => team.name).join(', ')}. Their grants are included below.`}
      </Text>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <TextInput
          label="Search my projects"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          maw={320}
        />
        {mayCreate ? (
          <Button onClick={dialog.open}>New project</Button>
        ) : (
          <Text size="sm" c="dimmed">
            Only org admins can create projects here (members can when an admin allows it in Settings).
          </Text>
        )}
      </Group>
      {projects.isError ? (
        <QueryError error={projects.error} />
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {projects.isPending
              ? 'Loading…'
              : `${rows.length} of ${projects.data.projects.length} projects you can open`}
          </Text>
          <VirtualTable
            label="My projects"
            rows={rows}
            columns={columns}
            rowKey={(p) => p.id}
            empty="No project shared with you yet."
          />
        </>
      )}
      <NameDialog
        opened={creating}
        title="New project"
        label="Project name"
        submitLabel="Create project"
        onClose={dialog.close}
        onSubmit={(name) =>
          create
            .mutateAsync({ params: { path: { orgSlug: org.slug } }, body: { name } })
            .then((p) => notifySuccess(`Created project ${p.name}`))
        }
      />
    </Stack>
  );
}
