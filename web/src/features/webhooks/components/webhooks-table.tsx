import { Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { ConfirmAction } from '../../../components/confirm-action';
import { QueryError } from '../../../components/query-error';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifyError, notifySuccess } from '../../../lib/notify';
import {
  useDeleteWebhook,
  useRotateWebhookSecret,
  useTestWebhook,
  useUpdateWebhook,
  useWebhooks,
} from '../api/webhooks';
import { DeliveriesTable } from './deliveries-table';
import { EditWebhookDialog } from './edit-webhook-dialog';
import { SecretDialog } from './secret-dialog';

type Webhook = Schemas['Webhook'];

const nameOf = (webhook: Webhook) => webhook.description || webhook.url;

/** Disable, enable, test, rotate and delete, each showing its pending state and telling how it went. */
function Actions({
  webhook,
  onEdit,
  onDeliveries,
  onSecret,
}: {
  webhook: Webhook;
  onEdit: () => void;
  onDeliveries: () => void;
  onSecret: (secret: string) => void;
}) {
  const { org } = useOrg();
  const path = { orgSlug: org.slug, webhookId: webhook.id };
  const update = useUpdateWebhook();
  const test = useTestWebhook();
  const rotate = useRotateWebhookSecret();
  const remove = useDeleteWebhook();
  const disabled = webhook.status === 'disabled';
  const name = nameOf(webhook);
  return (
    <Group gap="xs" wrap="wrap">
      <Button size="xs" variant="default" onClick={onEdit} aria-label={`Edit ${name}`}>
        Edit
      </Button>
      <Button size="xs" variant="default" onClick={onDeliveries} aria-label={`Deliveries of ${name}`}>
        Deliveries
      </Button>
      <Button
        size="xs"
        variant="default"
        loading={test.isPending}
        aria-label={`Send a test to ${name}`}
        onClick={() =>
          test
            .mutateAsync({ params: { path } })
            .then(() => {
              notifySuccess('Test ping queued');
              onDeliveries();
            })
            .catch((error: unknown) => notifyError(error, 'The test was not sent'))
        }
      >
        Test
      </Button>
      <Button
        size="xs"
        variant="default"
        loading={update.isPending}
        aria-label={`${disabled ? 'Enable' : 'Disable'} ${name}`}
        onClick={() =>
          update
            .mutateAsync({ params: { path }, body: { disabled: !disabled } })
            .then(() => notifySuccess(disabled ? 'Endpoint enabled' : 'Endpoint disabled'))
            .catch((error: unknown) => notifyError(error, 'The endpoint was not changed'))
        }
      >
        {disabled ? 'Enable' : 'Disable'}
      </Button>
      <ConfirmAction
        label="Rotate secret"
        ariaLabel={`Rotate the secret of ${name}`}
        buttonProps={{ color: 'blue' }}
        title={`Rotate the secret of “${name}”?`}
        message={
          'A new secret is made and shown once. For 24 hours deliveries are signed with both, ' +
          'so the receiver can switch.'
        }
        confirmLabel="Rotate secret"
        onConfirm={() =>
          rotate
            .mutateAsync({ params: { path } })
            .then((rotated) => onSecret(rotated.secret))
            .catch((error: unknown) => {
              notifyError(error, 'The secret was not rotated');
              throw error;
            })
        }
      />
      <ConfirmAction
        label="Delete"
        ariaLabel={`Delete ${name}`}
        title={`Delete “${name}”?`}
        message={
          'The endpoint, its secret and its deliveries are removed; nothing more is sent to it. ' +
          'This cannot be undone.'
        }
        confirmLabel="Delete endpoint"
        onConfirm={() =>
          remove
            .mutateAsync({ params: { path } })
            .then(() => notifySuccess(`Deleted ${name}`))
            .catch((error: unknown) => {
              notifyError(error, 'The endpoint was not deleted');
              throw error;
            })
        }
      />
    </Group>
  );
}

/** The organization's endpoints, newest first; one's deliveries show below the table. */
export function WebhooksTable() {
  const { org } = useOrg();
  const { data, error, isPending } = useWebhooks(org.slug);
  const [editing, setEditing] = useState<Webhook | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ title: string; secret: string } | null>(null);
  if (error) return <QueryError error={error} title="Could not load the webhook endpoints" />;
  if (isPending) return <Text c="dimmed">Loading endpoints…</Text>;
  if (data.webhooks.length === 0) return <Text c="dimmed">No endpoints yet.</Text>;
  const selected = data.webhooks.find((webhook) => webhook.id === selectedId);
  return (
    <>
      <Table.ScrollContainer minWidth={900}>
        <Table striped aria-label="Webhook endpoints">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Endpoint</Table.Th>
              <Table.Th>Events</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.webhooks.map((webhook) => (
              <Table.Tr key={webhook.id}>
                <Table.Td maw={280}>
                  <Stack gap={0}>
                    {webhook.description && <Text fw={500}>{webhook.description}</Text>}
                    <Text size="sm" style={{ wordBreak: 'break-all' }}>
                      {webhook.url}
                    </Text>
                  </Stack>
                </Table.Td>
                <Table.Td maw={220}>
                  <Text size="sm">{webhook.events.join(', ')}</Text>
                </Table.Td>
                <Table.Td>
                  <Stack gap={2}>
                    <Badge variant={webhook.status === 'active' ? 'filled' : 'default'}>{webhook.status}</Badge>
                    {webhook.disabledReason && (
                      <Text size="xs" c="dimmed">
                        {webhook.disabledReason}
                      </Text>
                    )}
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Actions
                    webhook={webhook}
                    onEdit={() => setEditing(webhook)}
                    onDeliveries={() => setSelectedId(webhook.id)}
                    onSecret={(value) => setSecret({ title: `New secret of “${nameOf(webhook)}”`, secret: value })}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {selected && <DeliveriesTable webhook={selected} />}
      {editing && <EditWebhookDialog webhook={editing} onClose={() => setEditing(null)} />}
      <SecretDialog shown={secret} onClose={() => setSecret(null)} />
    </>
  );
}
