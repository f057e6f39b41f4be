import {
  Alert,
  Anchor,
  Button,
  Code,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { QueryError } from '../../../components/query-error';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { type AuditFilters, useAuditEvents } from '../api/audit-events';
import { fieldChanges } from './changes';
import { SelectField } from '../../../components/select-field';

type AuditEvent = Schemas['AuditEvent'];

const TARGET_TYPES = [
  'member',
  'team',
  'team_member',
  'folder',
  'project',
  'project_binding',
  'project_team_access',
  'organization',
  'organization_settings',
  'capacity_policy',
  'provider_connection',
  'chat_application_connection',
  'capability_connection',
  'agent_role',
  'agent_role_skills',
  'agent_skill',
  'library_folder',
  'api_token',
  'usage',
];

/** A date input's day (local midnight) as an RFC 3339 instant; `end` moves it to the next midnight. */
const dayBoundary = (day: string, end: boolean): string | undefined => {
  if (!day) return undefined;
  const at = new Date(`${day}T00:00:00`);
  if (end) at.setDate(at.getDate() + 1);
  return at.toISOString();
};

function filtersFrom(params: URLSearchParams): AuditFilters {
  const value = (name: string) => params.get(name) || undefined;
  return {
    action: value('action'),
    targetType: value('targetType'),
    targetId: value('targetId'),
    actorId: value('actorId'),
    from: dayBoundary(params.get('fromDay') ?? '', false),
    to: dayBoundary(params.get('toDay') ?? '', true),
  };
}

function ChangesDialog({ event, onClose }: { event: AuditEvent | null; onClose: () => void }) {
  const rows = event ? fieldChanges(event.changes.before, event.changes.after) : [];
  return (
    <Modal opened={event !== null} onClose={onClose} title={`${event?.action ?? ''}: before and after`} size="lg">
      {event && (
        <Stack>
          <Text size="sm">
            {event.target.type} <Code>{event.target.id ?? '—'}</Code> by {event.actor.displayName} at{' '}
            {new Date(event.at).toLocaleString()}
            {event.requestId && (
              <>
                {' '}
                (request <Code>{event.requestId}</Code>)
              </>
            )}
          </Text>
          {rows.length === 0 ? (
            <Text c="dimmed">No fields recorded.</Text>
          ) : (
            <Table.ScrollContainer minWidth={420}>
              <Table aria-label="Changed fields">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Field</Table.Th>
                    <Table.Th>Before</Table.Th>
                    <Table.Th>After</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row) => (
                    <Table.Tr key={row.field} fw={row.changed ? 600 : undefined}>
                      <Table.Td>
                        {row.field}
                        {row.changed && <VisuallyHidden> (changed)</VisuallyHidden>}
                      </Table.Td>
                      <Table.Td style={{ wordBreak: 'break-all' }}>{row.before || '—'}</Table.Td>
                      <Table.Td style={{ wordBreak: 'break-all' }}>{row.after || '—'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      )}
    </Modal>
  );
}

function Filters() {
  const [params, setParams] = useSearchParams();
  const [action, setAction] = useState(params.get('action') ?? '');
  const [targetId, setTargetId] = useState(params.get('targetId') ?? '');
  // One navigation for all changes: react-router does not queue two updates made in one event.
  const set = (values: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(values)) {
          if (value) next.set(name, value);
          else next.delete(name);
        }
        return next;
      },
      { replace: true },
    );
  return (
    <Paper
      withBorder
      p="md"
      mb="md"
      component="form"
      aria-label="Filter the audit log"
      onSubmit={(e) => {
        e.preventDefault();
        set({ action: action.trim(), targetId: targetId.trim() });
      }}
    >
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="Action"
          placeholder="e.g. addMember"
          value={action}
          onChange={(e) => setAction(e.currentTarget.value)}
        />
        <SelectField
          label="Target type"
          placeholder="Any"
          clearable
          data={TARGET_TYPES}
          value={params.get('targetType')}
          onChange={(value) => set({ targetType: value })}
          w={220}
        />
        <TextInput label="Target id" value={targetId} onChange={(e) => setTargetId(e.currentTarget.value)} />
        <TextInput
          type="date"
          label="From"
          value={params.get('fromDay') ?? ''}
          onChange={(e) => set({ fromDay: e.currentTarget.value })}
        />
        <TextInput
          type="date"
          label="To"
          value={params.get('toDay') ?? ''}
          onChange={(e) => set({ toDay: e.currentTarget.value })}
        />
        <Button type="submit" variant="default">
          Apply
        </Button>
        <Button
          variant="subtle"
          onClick={() => {
            setAction('');
            setTargetId('');
            setParams(new URLSearchParams(), { replace: true });
          }}
        >
          Clear filters
        </Button>
      </Group>
    </Paper>
  );
}

/** The organization's audit events, newest first, filtered by the URL's search parameters. */
export function AuditLog() {
  const { org } = useOrg();
  const [params, setParams] = useSearchParams();
  const events = useAuditEvents(org.slug, filtersFrom(params));
  const [shown, setShown] = useState<AuditEvent | null>(null);
  const filterBy = (name: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(name, value);
        return next;
      },
      { replace: true },
    );
  const list = events.data?.pages.flatMap((page) => page.events) ?? [];
  return (
    <>
      <Filters />
      {events.error && <QueryError error={events.error} title="Could not load the audit log" />}
      {events.isPending ? (
        <Text c="dimmed">Loading events…</Text>
      ) : list.length === 0 ? (
        <Text c="dimmed">No events match.</Text>
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table striped aria-label="Audit events">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Actor</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>Target</Table.Th>
                <Table.Th>Changes</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((event) => (
                <Table.Tr key={event.id}>
                  <Table.Td>{new Date(event.at).toLocaleString()}</Table.Td>
                  <Table.Td>
                    <Stack gap={0} miw={140}>
                      {event.actor.id ? (
                        <Anchor
                          component="button"
                          type="button"
                          size="sm"
                          ta="left"
                          title="Show only this actor's events"
                          onClick={() => filterBy('actorId', event.actor.id!)}
                        >
                          {event.actor.displayName}
                        </Anchor>
                      ) : (
                        <Text size="sm">{event.actor.displayName}</Text>
                      )}
                      <Text size="xs" c="dimmed">
                        {event.actor.type}
                      </Text>
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    <Code>{event.action}</Code>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{event.target.type}</Text>
                    {event.target.id && (
                      <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }}>
                        {event.target.id}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Button
                      variant="default"
                      size="xs"
                      aria-label={`Before and after of ${event.action} at ${new Date(event.at).toLocaleString()}`}
                      onClick={() => setShown(event)}
                    >
                      View
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {events.isFetchNextPageError && (
        <Alert color="red" mt="sm" role="alert" title="The next page did not load">
          Try again.
        </Alert>
      )}
      {events.hasNextPage && (
        <Group justify="center" mt="md">
          <Button variant="default" loading={events.isFetchingNextPage} onClick={() => events.fetchNextPage()}>
            Load older events
          </Button>
        </Group>
      )}
      <ChangesDialog event={shown} onClose={() => setShown(null)} />
    </>
  );
}
