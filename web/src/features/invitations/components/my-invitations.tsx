import { formatDate } from '../../../lib/format';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { QueryError } from '../../../components/query-error';
import { useAcceptMyInvitation } from '../api/accept-invitation';
import { useMyInvitations } from '../api/get-my-invitations';
import { homeOf } from './home-of';
import { TeamsGiven } from './teams-given';
import { RefusalAlert } from '../../../components/required-sign-in';

/**
 * For a signed-in person with no organization: the invitations addressed to their verified email
 * address, each joined with one click; none → ask an admin.
 */
export function MyInvitations() {
  const mine = useMyInvitations();
  const accept = useAcceptMyInvitation();
  const [accepting, setAccepting] = useState<string | null>(null);
  const navigate = useNavigate();
  if (mine.isError) return <QueryError error={mine.error} title="Could not load your invitations" />;
  if (mine.isPending) return <Text c="dimmed">Looking for invitations…</Text>;
  const invitations = mine.data.invitations;
  if (invitations.length === 0) {
    return (
      <Text>
        No invitation is addressed to you. Ask an organization's admin to invite you or add you, or open the invitation
        link you were sent.
      </Text>
    );
  }
  return (
    <Stack component="section" aria-labelledby="my-invitations-title">
      <Title order={2} size="h4" id="my-invitations-title">
        Invitations for you
      </Title>
      {invitations.map((i) => (
        <Card key={i.id} withBorder>
          <Group justify="space-between" wrap="wrap">
            <Stack gap={2}>
              <Text fw={500}>{i.organization.name}</Text>
              <Text size="sm" c="dimmed">
                {i.invitedBy.displayName} invited you as <Badge variant="light">{i.role}</Badge> · until{' '}
                {formatDate(i.expiresAt)}
              </Text>
              <TeamsGiven teams={i.teams} />
            </Stack>
            <Button
              loading={accept.isPending && accepting === i.id}
              disabled={accept.isPending && accepting !== i.id}
              onClick={() => {
                setAccepting(i.id);
                accept.mutate(
                  { params: { path: { invitationId: i.id } } },
                  { onSuccess: (joined) => navigate(homeOf(joined)) },
                );
              }}
            >
              Join {i.organization.name}
            </Button>
          </Group>
        </Card>
      ))}
      {accept.isError && <RefusalAlert error={accept.error} title="Not joined" returnTo="/" />}
    </Stack>
  );
}
