import { formatDateTime } from '../../../lib/format';
import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { QueryError } from '../../../components/query-error';
import { type Column, VirtualTable } from '../../../components/virtual-table';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { useProjectSessions } from '../api/get-project-sessions';
import { SelectField } from '../../../components/select-field';

type Session = Schemas['SessionSummary'];

export const SESSION_LIMITS = ['10', '50', '200'];

const columns: Column<Session>[] = [
  {
    key: 'title',
    header: 'Session',
    render: (s) =>
      s.title ?? (
        <Text span c="dimmed" size="sm">
          untitled
        </Text>
      ),
  },
  { key: 'role', wideOnly: true, header: 'Role', render: (s) => s.roleId },
  { key: 'model', wideOnly: true, header: 'Model', render: (s) => `${s.provider} / ${s.model}` },
  { key: 'runs', header: 'Runs', render: (s) => s.runCount, width: 70 },
  {
    key: 'updated',
    wideOnly: true,
    header: 'Updated',
    render: (s) => formatDateTime(s.updatedAt),
    width: 190,
  },
];

/** The project's agent sessions, newest first, as many as the chosen limit. */
export function ProjectSessions({ projectId }: { projectId: string }) {
  const { org } = useOrg();
  const [limit, setLimit] = useState('50');
  const sessions = useProjectSessions(org.slug, projectId, Number(limit));
  return (
    <Paper withBorder p="md">
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            Sessions
          </Title>
          <SelectField label="Show at most" data={SESSION_LIMITS} value={limit} onChange={setLimit} size="xs" w={90} />
        </Group>
        {sessions.isError ? (
          <QueryError error={sessions.error} />
        ) : (
          <VirtualTable
            label="Sessions"
            rows={sessions.data?.sessions ?? []}
            columns={columns}
            rowKey={(s) => s.id}
            maxHeight="40vh"
            empty={sessions.isPending ? 'Loading…' : 'No open session.'}
          />
        )}
      </Stack>
    </Paper>
  );
}
