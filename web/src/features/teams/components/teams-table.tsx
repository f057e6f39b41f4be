import { Anchor, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { QueryError } from '../../../components/query-error';
import { type Column, VirtualTable } from '../../../components/virtual-table';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { useTeams } from '../../../lib/queries/get-teams';
import { ArchiveTeamButton } from './archive-team-button';
import { EditTeamButton } from './edit-team-button';

type Team = Schemas['TeamRow'];

export function TeamsTable() {
  const { org } = useOrg();
  const teams = useTeams(org.slug);
  const [search, setSearch] = useState('');
  const rows = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (teams.data?.teams ?? []).filter(
      (t) => !needle || t.name.toLowerCase().includes(needle) || t.slug.includes(needle),
    );
  }, [teams.data, search]);
  const columns: Column<Team>[] = [
    {
      key: 'name',
      header: 'Team',
      render: (t) => (
        <Stack gap={0}>
          <Anchor
            component={Link}
            to={`/o/${encodeURIComponent(org.slug)}/teams/${encodeURIComponent(t.id)}`}
            fw={500}
            size="sm"
          >
            {t.name}
          </Anchor>
          <Text size="xs" c="dimmed">
            {t.slug}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'description',
      wideOnly: true,
      header: 'Description',
      render: (t) => (
        <Text size="sm" lineClamp={2}>
          {t.description ?? ''}
        </Text>
      ),
    },
    { key: 'members', header: 'Members', render: (t) => t.memberCount, width: 100 },
    {
      key: 'actions',
      header: 'Actions',
      width: 170,
      render: (t) => (
        <Group gap="xs" wrap="nowrap">
          <EditTeamButton team={t} />
          <ArchiveTeamButton team={t} />
        </Group>
      ),
    },
  ];
  if (teams.isError) return <QueryError error={teams.error} />;
  return (
    <Stack>
      <TextInput label="Search teams" value={search} onChange={(e) => setSearch(e.currentTarget.value)} maw={320} />
      <Text size="sm" c="dimmed">
        {teams.isPending ? 'Loading…' : `${rows.length} of ${teams.data?.teams.length ?? 0} teams`}
      </Text>
      <VirtualTable label="Teams" rows={rows} columns={columns} rowKey={(t) => t.id} empty="No team yet." />
    </Stack>
  );
}
