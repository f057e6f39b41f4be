import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { ConfirmAction } from '../../../components/confirm-action';
import { QueryError } from '../../../components/query-error';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useMySessions, useRevokeMySession, useRevokeOtherSessions } from '../api/my-sessions';

/**
 * "Sessions": every browser the person is signed in on (device, address, started, last seen),
 * this one marked; any other can be signed out, or all others at once.
 */
export function MySessions() {
  const sessions = useMySessions();
  const revoke = useRevokeMySession();
  const revokeOthers = useRevokeOtherSessions();
  const others = (sessions.data?.sessions ?? []).filter((s) => !s.current);
  return (
    <Stack component="section" aria-labelledby="my-sessions-title">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h3" id="my-sessions-title">
          Sessions
        </Title>
        {others.length > 0 && (
          <ConfirmAction
            label="Sign out all other sessions"
            title="Sign out everywhere else?"
            message={
              `The ${others.length} other browser${others.length === 1 ? '' : 's'} signed in as you ` +
              'will need to sign in again. This one stays signed in.'
            }
            confirmLabel="Sign out others"
            onConfirm={() =>
              revokeOthers
                .mutateAsync({})
                .then(({ ended }) => notifySuccess(`Signed out ${ended} other session${ended === 1 ? '' : 's'}`))
            }
          />
        )}
      </Group>
      {sessions.isError && <QueryError error={sessions.error} title="Could not load your sessions" />}
      {sessions.isPending && <Text c="dimmed">Loading your sessions…</Text>}
      {sessions.data?.sessions.map((session) => {
        const device = session.device ?? 'A browser not seen yet';
        return (
          <Card key={session.id} withBorder data-testid="my-session">
            <Group justify="space-between" wrap="wrap" gap="sm">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Group gap="xs">
                  <Text fw={500}>{device}</Text>
                  {session.current && <Badge variant="light">This browser</Badge>}
                </Group>
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {session.address ?? 'No address yet'} · signed in {formatDateTime(session.createdAt)} · last seen{' '}
                  {formatDateTime(session.lastSeenAt)}
                </Text>
              </Stack>
              {!session.current && (
                <ConfirmAction
                  label="Sign out"
                  ariaLabel={`Sign out ${device}`}
                  title={`Sign out ${device}?`}
                  message="That browser is signed out at once and needs to sign in again."
                  confirmLabel="Sign out"
                  onConfirm={() =>
                    revoke
                      .mutateAsync({ params: { path: { sessionId: session.id } } })
                      .then(() => notifySuccess(`Signed out ${device}`))
                  }
                />
              )}
            </Group>
          </Card>
        );
      })}
    </Stack>
  );
}
