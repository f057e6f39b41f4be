import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { ConfirmAction } from '../../../components/confirm-action';
import { QueryError } from '../../../components/query-error';
import type { Schemas } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useMyAccessRequests, useWithdrawAccessRequest } from '../api/access-requests';

const STATUS_COLOR: Record<Schemas['AccessRequestStatus'], string> = {
  pending: 'blue',
  approved: 'green',
  denied: 'red',
  expired: 'gray',
  withdrawn: 'gray',
};

/** "Your access requests": what the person asked for, its state, and a withdrawal while pending. */
export function MyAccessRequests() {
  const requests = useMyAccessRequests();
  const withdraw = useWithdrawAccessRequest();
  if (requests.isError) return <QueryError error={requests.error} title="Could not load your access requests" />;
  if (!requests.data || requests.data.requests.length === 0) return null;
  return (
    <Stack component="section" aria-labelledby="my-access-requests-title">
      <Title order={2} size="h3" id="my-access-requests-title">
        Your access requests
      </Title>
      {requests.data.requests.map((request) => (
        <Card key={request.id} withBorder data-testid="my-access-request">
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Group gap="xs">
                <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                  {request.level} on {request.projectName}
                </Text>
                <Badge color={STATUS_COLOR[request.status]} variant="light">
                  {request.status}
                </Badge>
              </Group>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                Asked {formatDate(request.createdAt)}
                {request.status === 'pending' && ` · expires ${formatDate(request.expiresAt)}`}
                {request.decidedBy && ` · by ${request.decidedBy.displayName}`}
              </Text>
            </Stack>
            {request.status === 'pending' && (
              <ConfirmAction
                label="Withdraw"
                ariaLabel={`Withdraw the request for ${request.projectName}`}
                title="Withdraw this request?"
                message={`Your request for ${request.level} on ${request.projectName} is withdrawn; you can ask again.`}
                confirmLabel="Withdraw"
                onConfirm={() =>
                  withdraw
                    .mutateAsync({
                      params: {
                        path: {
                          orgSlug: request.organizationSlug,
                          projectId: request.projectId,
                          requestId: request.id,
                        },
                      },
                    })
                    .then(() => notifySuccess('Request withdrawn'))
                }
              />
            )}
          </Group>
        </Card>
      ))}
    </Stack>
  );
}
