import { Alert, Badge, Button, Card, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { QueryError } from '../../../components/query-error';
import { SelectField } from '../../../components/select-field';
import { errorMessage, type Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { formatDate } from '../../../lib/format';
import { notifyError, notifySuccess } from '../../../lib/notify';
import {
  useAccessRequests,
  useApproveAccessRequest,
  useCreateAccessRequest,
  useDenyAccessRequest,
} from '../api/access-requests';

type GrantRole = Schemas['GrantRole'];
const LEVELS: GrantRole[] = ['READ', 'EDIT', 'MANAGE'];

/** "Alice, Bob and Carol". */
const listed = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/** Who can grant the project, in a sentence. */
function approversSentence(list: Schemas['AccessRequestList']): string {
  const names = listed(list.approvers.map((a) => a.displayName));
  if (list.approvers.length === 0) return 'Nobody can grant access to this project yet.';
  return list.approversAre === 'manageHolders'
    ? `${names} can grant access to this project (they hold MANAGE on it).`
    : `This project has no MANAGE holder, so the organization's admins decide: ${names}.`;
}

/**
 * For someone a project refused: who can grant it, their own request if they made one, and a
 * form to ask for a level with a reason.
 */
export function RequestAccess({ projectId }: { projectId: string }) {
  const { org } = useOrg();
  const requests = useAccessRequests(org.slug, projectId);
  const create = useCreateAccessRequest();
  const [level, setLevel] = useState<GrantRole>('READ');
  const [reason, setReason] = useState('');
  if (requests.isError) return <QueryError error={requests.error} title="Could not load who can grant access" />;
  if (!requests.data) return <Text c="dimmed">Loading who can grant access…</Text>;
  const pending = requests.data.requests.find((r) => r.status === 'pending');
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    create.mutate(
      { params: { path: { orgSlug: org.slug, projectId } }, body: { level, reason: reason.trim() } },
      { onSuccess: () => notifySuccess('Your request is sent') },
    );
  };
  return (
    <Stack gap="sm" data-testid="request-access">
      <Text>{approversSentence(requests.data)}</Text>
      {pending ? (
        <Text>
          You asked for {pending.level} on {formatDate(pending.createdAt)}; the request is pending until{' '}
          {formatDate(pending.expiresAt)}. Your profile lists your requests.
        </Text>
      ) : (
        <form onSubmit={submit} aria-label="Request access">
          <Stack gap="xs">
            <SelectField label="Access" data={LEVELS} value={level} onChange={setLevel} w={140} />
            <Textarea
              label="Why you need it"
              value={reason}
              maxLength={1000}
              onChange={(e) => setReason(e.currentTarget.value)}
              autosize
              minRows={2}
            />
            <Group>
              <Button type="submit" loading={create.isPending} disabled={!reason.trim()}>
                Request access
              </Button>
            </Group>
            {create.isError && (
              <Alert color="red" title="Request not sent" role="alert">
                {errorMessage(create.error)}
              </Alert>
            )}
          </Stack>
        </form>
      )}
    </Stack>
  );
}

function PendingRequest({ request, projectId }: { request: Schemas['AccessRequest']; projectId: string }) {
  const { org } = useOrg();
  const approve = useApproveAccessRequest();
  const deny = useDenyAccessRequest();
  const [level, setLevel] = useState<GrantRole>(request.level);
  const path = { params: { path: { orgSlug: org.slug, projectId, requestId: request.id } } };
  const who = request.requester.displayName;
  const busy = approve.isPending || deny.isPending;
  return (
    <Card withBorder data-testid="pending-access-request">
      <Stack gap="xs">
        <Group gap="xs">
          <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
            {who} asks for {request.level}
          </Text>
          <Badge variant="light">until {formatDate(request.expiresAt)}</Badge>
        </Group>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {request.reason}
        </Text>
        <Group align="flex-end" wrap="wrap" gap="xs">
          <SelectField
            size="xs"
            w={110}
            aria-label={`Access to give ${who}`}
            data={LEVELS}
            value={level}
            onChange={setLevel}
            disabled={busy}
          />
          <Button
            size="xs"
            loading={approve.isPending}
            disabled={busy}
            onClick={() =>
              approve.mutate(
                { ...path, body: { level } },
                {
                  onSuccess: (r) => notifySuccess(`${who} has ${r.grantedLevel}`),
                  onError: (error) => notifyError(error, 'Not approved'),
                },
              )
            }
          >
            Approve
          </Button>
          <Button
            size="xs"
            color="red"
            variant="light"
            loading={deny.isPending}
            disabled={busy}
            onClick={() =>
              deny.mutate(path, {
                onSuccess: () => notifySuccess(`Denied ${who}'s request`),
                onError: (error) => notifyError(error, 'Not denied'),
              })
            }
          >
            Deny
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** Access requests for the project's approvers: each pending request, approved at a level or denied. */
export function AccessRequests({ projectId }: { projectId: string }) {
  const { org } = useOrg();
  const requests = useAccessRequests(org.slug, projectId);
  if (requests.isError) return <QueryError error={requests.error} title="Could not load access requests" />;
  if (!requests.data?.canDecide) return null;
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={2} size="h4">
          Access requests
        </Title>
        {requests.data.requests.length === 0 && <Text c="dimmed">No one is waiting for access.</Text>}
        {requests.data.requests.map((request) => (
          <PendingRequest key={request.id} request={request} projectId={projectId} />
        ))}
      </Stack>
    </Paper>
  );
}
