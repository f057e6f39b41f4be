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
import { useDisableProviderConnection } from '../api/disable-provider-connection';
import { useProviderConnections } from '../api/get-provider-connections';
import { KeyIdText, StatusBadge, VersionText } from './connection-parts';
import { ProviderConnectionDialog } from './provider-connection-dialog';

type Row = Schemas['ProviderConnectionRow'];

const PLATFORM_MANAGED_REASON =
  'Managed by the platform operator (hub connection platform): the organization cannot rotate or disable it.';

function Actions({ row, onRotate }: { row: Row; onRotate: () => void }) {
  const { org } = useOrg();
  const disable = useDisableProviderConnection();
  if (row.mode === 'PLATFORM_MANAGED')
    return (
      <Text size="xs" c="dimmed" maw={260}>
        {PLATFORM_MANAGED_REASON}
      </Text>
    );
  return (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" variant="default" onClick={onRotate} aria-label={`Rotate ${row.providerId}`}>
        Rotate
      </Button>
      <ConfirmAction
        label="Disable"
        ariaLabel={`Disable ${row.providerId}`}
        title={`Disable ${row.providerId}?`}
        message={
          `Agents stop using ${row.providerId} at once. Its credential versions are kept; ` +
          'rotating it seals a new version and makes it active again.'
        }
        confirmLabel="Disable connection"
        disabled={row.status === 'DISABLED'}
        onConfirm={() =>
          disable
            .mutateAsync({ params: { path: { orgSlug: org.slug, providerId: row.providerId } } })
            .then((r) => notifySuccess(`${r.providerId} is ${r.status}`))
        }
      />
    </Group>
  );
}

/** The organization's provider connections: BYOK ones rotate and disable here, PLATFORM_MANAGED ones are read-only. */
export function ProviderConnections() {
  const { org } = useOrg();
  const list = useProviderConnections(org.slug);
  // The target outlives `opened` so the dialog keeps its title while it fades out.
  const [target, setTarget] = useState<string | null>(null);
  const [opened, { open, close }] = useDisclosure(false);
  const openFor = (providerId: string | null) => {
    setTarget(providerId);
    open();
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="providers-title">
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id="providers-title">
            Model providers
          </Title>
          <Button size="sm" onClick={() => openFor(null)}>
            Add a provider connection
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          BYOK connections use your organization's own credentials. Each rotation seals a new version under the master
          key named by its key id; earlier versions are kept.
        </Text>
        {list.isError ? (
          <QueryError error={list.error} />
        ) : (
          <ScrollRegion label="Provider connections">
            <Table miw={tableWidth(820)} aria-label="Provider connections" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Provider</Table.Th>
                  <Table.Th {...WIDE_ONLY}>Mode</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th {...WIDE_ONLY}>Version</Table.Th>
                  <Table.Th {...WIDE_ONLY}>Key id</Table.Th>
                  <Table.Th {...WIDE_ONLY}>Updated</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.isPending && <MessageRow columns={7}>Loading…</MessageRow>}
                {list.data?.connections.length === 0 && (
                  <MessageRow columns={7}>No provider connection yet.</MessageRow>
                )}
                {list.data?.connections.map((row) => (
                  <Table.Tr key={row.id} data-provider={row.providerId}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {row.providerId}
                      </Text>
                    </Table.Td>
                    <Table.Td {...WIDE_ONLY}>
                      <Code>{row.mode}</Code>
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
                      <Actions row={row} onRotate={() => openFor(row.providerId)} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollRegion>
        )}
      </Stack>
      <ProviderConnectionDialog opened={opened} providerId={target} onClose={close} />
    </Paper>
  );
}
