import { Alert, Anchor, Button, Code, Group, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { Fragment, useState } from 'react';
import { useSearchParams } from 'react-router';
import { QueryError } from '../../../components/query-error';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { formatDateTime } from '../../../lib/format';
import { type AuditFilters, useAuditEvents } from '../api/audit-events';
import { AUDIT_ACTIONS } from '../actions';
import { fieldChanges } from './changes';
import { SelectField } from '../../../components/select-field';
import { targetName } from '../../../../../src/audit/target-name';

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

/** What the event changed, one line per value moved; the whole target for one created or removed. */
function ChangesView({ event, id }: { event: AuditEvent; id: string }) {
  const rows = fieldChanges(event.changes.before, event.changes.after);
  return (
    <Stack gap="xs" id={id}>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No field changed.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={320}>
          <Table aria-label={`Changes: ${event.summary}`} withRowBorders={false}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Field</Table.Th>
                <Table.Th>Before</Table.Th>
                <Table.Th>After</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.path.join('\u0000')}>
                  <Table.Td ff="monospace" fz="sm">
                    {row.path.join(' › ')}
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{row.before}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{row.after}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Text size="xs" c="dimmed">
        {event.target.type}
        {event.target.id && (
          <>
            {' '}
            <Code>{event.target.id}</Code>
          </>
        )}
        {event.requestId && (
          <>
            {' '}
            · request <Code>{event.requestId}</Code>
          </>
        )}
      </Text>
    </Stack>
  );
}

/** The export of the filtered window: the same filters, every page, as NDJSON (a download). */
function exportUrl(orgSlug: string, filters: AuditFilters): string {
  // Percent-encoded (a space as %20): the server reads a `+` as a plus sign, as in a time's offset.
  const query = Object.entries({ format: 'ndjson', ...filters })
    .filter(([, value]) => value)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value!)}`)
    .join('&');
  return `/api/org/${encodeURIComponent(orgSlug)}/audit-events?${query}`;
}

function Filters() {
  const { org } = useOrg();
  const [params, setParams] = useSearchParams();
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
        set({ targetId: targetId.trim() });
      }}
    >
      <Group align="flex-end" wrap="wrap">
        <SelectField
          label="Action"
          placeholder="Any"
          searchable
          clearable
          nothingFoundMessage="No such action"
          data={AUDIT_ACTIONS}
          value={params.get('action')}
          onChange={(value) => set({ action: value })}
          w={260}
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
            setTargetId('');
            setParams(new URLSearchParams(), { replace: true });
          }}
        >
          Clear filters
        </Button>
        <Button
          component="a"
          variant="light"
          href={exportUrl(org.slug, filtersFrom(params))}
          download="audit-events.ndjson"
          title="Every event these filters match, one JSON object per line"
        >
          Export NDJSON
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
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpened((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
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
        <Table aria-label="Audit events" layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={{ base: 96, sm: 180 }}>When</Table.Th>
              <Table.Th>Event</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((event) => {
              const open = opened.has(event.id);
              const panel = `audit-changes-${event.id}`;
              return (
                <Fragment key={event.id}>
                  <Table.Tr>
                    <Table.Td fz="sm" style={{ verticalAlign: 'top' }}>
                      {formatDateTime(event.at)}
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <Stack gap={4}>
                        <Text size="sm" fw={500}>
                          {event.summary}
                        </Text>
                        <Group gap="xs" wrap="wrap">
                          {event.actor.id ? (
                            <Anchor
                              component="button"
                              type="button"
                              size="xs"
                              title="Show only this actor's events"
                              onClick={() => filterBy('actorId', event.actor.id!)}
                            >
                              {event.actor.displayName}
                            </Anchor>
                          ) : (
                            <Text size="xs">{event.actor.displayName}</Text>
                          )}
                          <Code fz="xs">{event.action}</Code>
                          <Text size="xs" c="dimmed">
                            {targetName(event.target)}
                          </Text>
                          <Button
                            variant="default"
                            size="compact-xs"
                            aria-expanded={open}
                            aria-controls={open ? panel : undefined}
                            aria-label={`${open ? 'Hide' : 'Show'} changes: ${event.summary}`}
                            onClick={() => toggle(event.id)}
                          >
                            {open ? 'Hide changes' : 'Changes'}
                          </Button>
                        </Group>
                      </Stack>
                    </Table.Td>
                  </Table.Tr>
                  {open && (
                    <Table.Tr>
                      <Table.Td colSpan={2}>
                        <ChangesView event={event} id={panel} />
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
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
    </>
  );
}
