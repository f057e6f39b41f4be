import { formatDateTime } from '../../../lib/format';
import { Button, Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { ConfirmAction } from '../../../components/confirm-action';
import { MessageRow } from '../../../components/message-row';
import { QueryError } from '../../../components/query-error';
import { ScrollRegion } from '../../../components/scroll-region';
import { tableWidth, WIDE_ONLY } from '../../../lib/narrow';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useDisableCapabilityConnection } from '../api/disable-capability-connection';
import { useCapabilityConnections } from '../api/get-capability-connections';
import { CapabilityConnectionDialog } from './capability-connection-dialog';
import { KeyIdText, StatusBadge, VersionText } from './connection-parts';

type Row = Schemas['CapabilityConnectionRow'];

function DisableButton({ row }: { row: Row }) {
  const { org } = useOrg();
  const disable = useDisableCapabilityConnection();
  return (
    <ConfirmAction
      label="Disable"
      ariaLabel={`Disable ${row.label}`}
      title={`Disable ${row.label}?`}
      message={
        `Agents stop calling ${row.label} at once. Its credential versions are kept; ` +
        'rotating it makes it active again.'
      }
      confirmLabel="Disable connection"
      disabled={row.status === 'DISABLED'}
      onConfirm={() =>
        disable
          .mutateAsync({ params: { path: { orgSlug: org.slug, capabilityId: row.capabilityId } } })
          .then((r) => notifySuccess(`${r.label} is ${r.status}`))
      }
    />
  );
}

/** The external tools the organization's agents call (MCP servers, HTTP APIs), with their sealed headers. */
export function CapabilityConnections() {
  const { org } = useOrg();
  const list = useCapabilityConnections(org.slug);
  const [target, setTarget] = useState<Row | null>(null);
  const [opened, { open, close }] = useDisclosure(false);
  const openFor = (row: Row | null) => {
    setTarget(row);
    open();
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="capabilities-title">
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id="capabilities-title">
            External capabilities
          </Title>
          <Button size="sm" onClick={() => openFor(null)}>
            Add a capability connection
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          The tools your agents call. The endpoint and its headers are sealed together; header values are never shown.
        </Text>
        {list.isError ? (
          <QueryError error={list.error} />
        ) : (
          <ScrollRegion label="Capability connections">
            <Table miw={tableWidth(900)} aria-label="Capability connections" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Capability</Table.Th>
                  <Table.Th {...WIDE_ONLY}>Kind</Table.Th>
                  <Table.Th {...WIDE_ONLY}>Endpoint</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th {...WIDE_ONLY}>Version</Table.Th>
                  <Table.Th {...WIDE_ONLY}>Key id</Table.Th>
                  <Table.Th {...WIDE_ONLY}>Updated</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.isPending && <MessageRow columns={8}>Loading…</MessageRow>}
                {list.data?.connections.length === 0 && (
                  <MessageRow columns={8}>No capability connection yet.</MessageRow>
                )}
                {list.data?.connections.map((row) => (
                  <Table.Tr key={row.id} data-capability={row.capabilityId}>
                    <Table.Td>
                      <Stack gap={0}>
                        <Text size="sm" fw={500}>
                          {row.label}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {row.capabilityId}
                        </Text>
                      </Stack>
                    </Table.Td>
                    <Table.Td {...WIDE_ONLY}>
                      <Code>{row.kind}</Code>
                    </Table.Td>
                    <Table.Td {...WIDE_ONLY}>
                      <Text size="sm" style={{ wordBreak: 'break-all' }} maw={260}>
                        {row.endpointUrl}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge status={row.status} />
                    </Table.Td>
                    <Table.Td {...WIDE_ONLY}>
                      <VersionText version={row.activeVersion} />
                    </Table.Td>
                    <Table.Td {...WIDE_ONLY}>
                      <KeyIdText keyId={row.keyId} />
                    </Table.Td>
                    <Table.Td {...WIDE_ONLY}>
                      <Text size="sm">{formatDateTime(row.updatedAt)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => openFor(row)}
                          aria-label={`Rotate ${row.label}`}
                        >
                          Rotate
                        </Button>
                        <DisableButton row={row} />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollRegion>
        )}
      </Stack>
      <CapabilityConnectionDialog opened={opened} row={target} onClose={close} />
    </Paper>
  );
}
