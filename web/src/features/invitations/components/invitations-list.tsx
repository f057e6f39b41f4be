import { formatDateTime } from '../../../lib/format';
import { Alert, Badge, Button, Group, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ConfirmAction } from '../../../components/confirm-action';
import { QueryError } from '../../../components/query-error';
import type { Schemas } from '../../../lib/api-client';
import { canHandleOwners, useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { type InvitationStatus, useInvitations } from '../api/get-invitations';
import { useRevokeInvitation } from '../api/revoke-invitation';

type Invitation = Schemas['Invitation'];

const STATUS_COLOR: Record<InvitationStatus, string> = {
  pending: 'blue',
  accepted: 'green',
  expired: 'gray',
  revoked: 'red',
};
const FILTERS = ['pending', 'accepted', 'expired', 'revoked', 'all'] as const;
type Filter = (typeof FILTERS)[number];

function RevokeCell({ invitation }: { invitation: Invitation }) {
  const { org } = useOrg();
  const revoke = useRevokeInvitation();
  if (invitation.status !== 'pending') return null;
  const ownerOnly = invitation.role === 'OWNER' && !canHandleOwners(org.role);
  const who = invitation.email ?? `the ${invitation.role} link`;
  return (
    <ConfirmAction
      label="Revoke"
      ariaLabel={`Revoke the invitation for ${who}`}
      title="Revoke this invitation?"
      message={`The link for ${who} stops working now; whoever opens it is told it was revoked.`}
      confirmLabel="Revoke invitation"
      disabled={ownerOnly}
      onConfirm={() =>
        revoke
          .mutateAsync({ params: { path: { orgSlug: org.slug, invitationId: invitation.id } } })
          .then(() => notifySuccess('Invitation revoked'))
      }
    />
  );
}

/** The organization's invitations with their status, newest first, a page at a time. */
export function InvitationsList() {
  const { org } = useOrg();
  const [filter, setFilter] = useState<Filter>('pending');
  const invitations = useInvitations(org.slug, filter === 'all' ? undefined : filter);
  const rows = invitations.data?.pages.flatMap((page) => page.invitations) ?? [];
  return (
    <Paper withBorder p="md" mb="md" component="section" aria-labelledby="invitations-title">
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id="invitations-title">
            Invitations
          </Title>
          <SegmentedControl
            aria-label="Filter invitations by status"
            size="xs"
            value={filter}
            onChange={(v) => setFilter(v as Filter)}
            data={FILTERS.map((v) => ({ value: v, label: v === 'all' ? 'All' : v[0]!.toUpperCase() + v.slice(1) }))}
          />
        </Group>
        {invitations.isError && <QueryError error={invitations.error} title="Could not load the invitations" />}
        {invitations.isPending ? (
          <Text c="dimmed">Loading invitations…</Text>
        ) : rows.length === 0 ? (
          <Text c="dimmed">{filter === 'all' ? 'No invitations yet.' : `No ${filter} invitations.`}</Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table striped aria-label={filter === 'pending' ? 'Pending invitations' : 'Invitations'}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>For</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  <Table.Th>Invited by</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((i) => (
                  <Table.Tr key={i.id}>
                    <Table.Td>
                      <Text size="sm">{i.email ?? 'Anyone with the link'}</Text>
                      {i.teamIds.length > 0 && (
                        <Text size="xs" c="dimmed">
                          {i.teamIds.length === 1 ? '1 team' : `${i.teamIds.length} teams`}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{i.role}</Table.Td>
                    <Table.Td>
                      <Badge color={STATUS_COLOR[i.status]} variant="light">
                        {i.status}
                      </Badge>
                      {i.acceptedBy && (
                        <Text size="xs" c="dimmed">
                          by {i.acceptedBy.displayName}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{formatDateTime(i.expiresAt)}</Table.Td>
                    <Table.Td>{i.createdBy.displayName}</Table.Td>
                    <Table.Td>
                      <RevokeCell invitation={i} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {invitations.isFetchNextPageError && (
          <Alert color="red" role="alert" title="The next page did not load">
            Try again.
          </Alert>
        )}
        {invitations.hasNextPage && (
          <Group justify="center">
            <Button
              variant="default"
              loading={invitations.isFetchingNextPage}
              onClick={() => invitations.fetchNextPage()}
            >
              Load more invitations
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
