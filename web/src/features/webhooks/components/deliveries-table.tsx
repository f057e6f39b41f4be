import { formatDateTime } from '../../../lib/format';
import { Badge, Button, Code, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { QueryError } from '../../../components/query-error';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDeliveries, useRedeliver } from '../api/webhooks';

type Delivery = Schemas['WebhookDelivery'];

/** Filled for an outcome, plain while waiting; the theme's filled shades keep the text readable. */
const STATUS_BADGE: Record<Delivery['status'], { variant: string; color?: string }> = {
  pending: { variant: 'default' },
  delivered: { variant: 'filled' },
  failed: { variant: 'filled', color: 'red' },
};
const when = (at: string | null) => (at ? formatDateTime(at) : '—');

function RedeliverButton({ webhookId, delivery }: { webhookId: string; delivery: Delivery }) {
  const { org } = useOrg();
  const redeliver = useRedeliver();
  return (
    <Button
      size="xs"
      variant="default"
      loading={redeliver.isPending}
      aria-label={`Redeliver ${delivery.event} of ${when(delivery.createdAt)}`}
      onClick={() =>
        redeliver
          .mutateAsync({ params: { path: { orgSlug: org.slug, webhookId, deliveryId: delivery.id } } })
          .then(() => notifySuccess('Queued again'))
          .catch((error: unknown) => notifyError(error, 'Not queued again'))
      }
    >
      Redeliver
    </Button>
  );
}

/** An endpoint's latest deliveries: state, attempts, the last answer's status code and first bytes. */
export function DeliveriesTable({ webhook }: { webhook: Schemas['Webhook'] }) {
  const { org } = useOrg();
  const { data, error, isPending } = useDeliveries(org.slug, webhook.id);
  let body: ReactNode;
  if (error) body = <QueryError error={error} title="Could not load the deliveries" />;
  else if (isPending) body = <Text c="dimmed">Loading deliveries…</Text>;
  else if (data.deliveries.length === 0) body = <Text c="dimmed">No deliveries yet.</Text>;
  else
    body = (
      <Table.ScrollContainer minWidth={860}>
        <Table striped aria-label={`Deliveries to ${webhook.url}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Event</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Attempts</Table.Th>
              <Table.Th>Answer</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Next attempt</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.deliveries.map((delivery) => (
              <Table.Tr key={delivery.id}>
                <Table.Td>{delivery.event}</Table.Td>
                <Table.Td>
                  <Badge {...STATUS_BADGE[delivery.status]}>{delivery.status}</Badge>
                </Table.Td>
                <Table.Td>{delivery.attempt}</Table.Td>
                <Table.Td maw={320}>
                  <Stack gap={2}>
                    <Text size="sm">
                      {delivery.statusCode === null ? (delivery.error ?? '—') : `HTTP ${delivery.statusCode}`}
                      {delivery.durationMs !== null && ` · ${delivery.durationMs} ms`}
                    </Text>
                    {delivery.answer && (
                      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 96 }}>
                        {delivery.answer.slice(0, 200)}
                      </Code>
                    )}
                  </Stack>
                </Table.Td>
                <Table.Td>{when(delivery.createdAt)}</Table.Td>
                <Table.Td>{when(delivery.nextAttemptAt)}</Table.Td>
                <Table.Td>
                  <RedeliverButton webhookId={webhook.id} delivery={delivery} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  return (
    <section aria-labelledby="deliveries-title">
      <Title order={2} size="h4" id="deliveries-title" my="sm">
        Deliveries to {webhook.description || webhook.url}
      </Title>
      {body}
    </section>
  );
}
