import { formatDateTime } from '../../../lib/format';
import { Alert, Badge, Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { errorCode, errorMessage, type Schemas } from '../../../lib/api-client';
import { findOrg, homePath, type Me } from '../../../lib/authorization';
import { useLogout } from '../../../lib/queries/logout';
import { useAcceptInvitation } from '../api/accept-invitation';
import { useInvitation } from '../api/get-invitation';
import { homeOf } from './home-of';
import { TeamsGiven } from './teams-given';
import { RefusalAlert } from '../../../components/required-sign-in';

type Preview = Schemas['InvitationPreview'];

/** Why a link no longer admits anyone, in the words the service uses when it refuses one. */
const UNUSABLE: Record<Exclude<Preview['status'], 'pending'>, { title: string; text: string }> = {
  expired: { title: 'This invitation has expired', text: 'This invitation has expired; ask for a new one.' },
  revoked: { title: 'This invitation was revoked', text: 'This invitation was revoked; ask for a new one.' },
  accepted: {
    title: 'This invitation was already used',
    text: 'This invitation was already accepted; a link is single use.',
  },
};

/** The sign-in page, coming back to this invitation afterwards. */
export const signInFor = (path: string) => `/signin?returnTo=${encodeURIComponent(path)}`;

function Frame({ children }: { children: React.ReactNode }) {
  useEffect(() => {
    document.title = 'Invitation · Org Admin';
  }, []);
  return (
    <Container size="sm" py="xl" component="main">
      <Paper withBorder p="xl" radius="md">
        <Stack>
          <Title order={1}>Invitation</Title>
          {children}
        </Stack>
      </Paper>
    </Container>
  );
}

/** Someone without a session: the invitation is shown once they have signed in. */
export function InvitationSignIn({ path }: { path: string }) {
  return (
    <Frame>
      <Text>You were invited to join an organization. Sign in to see the invitation and accept it.</Text>
      <Group>
        <Button component="a" href={signInFor(path)}>
          Sign in to continue
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        After signing in you come back to this page.
      </Text>
    </Frame>
  );
}

/** A signed-in visitor: what the link invites to, why it cannot be used, or the accept button. */
export function InvitationAcceptance({ token, path, me }: { token: string; path: string; me: Me }) {
  const invitation = useInvitation(token);
  const accept = useAcceptInvitation();
  const logout = useLogout(signInFor(path));
  const navigate = useNavigate();
  if (invitation.isPending) return <PageLoader />;
  if (invitation.isError) {
    return (
      <Frame>
        <Alert color="red" title="This link does not work" role="alert">
          {errorMessage(invitation.error)}
        </Alert>
      </Frame>
    );
  }
  const { organization, role, invitedBy, expiresAt, status, teams } = invitation.data;
  const member = findOrg(me, organization.slug);
  const unusable = status === 'pending' ? undefined : UNUSABLE[status];
  const refusedForEmail = errorCode(accept.error) === 'invitation_email_mismatch';
  return (
    <Frame>
      <Text>
        {invitedBy.displayName} invited you to join <strong>{organization.name}</strong> as{' '}
        <Badge variant="light">{role}</Badge>.
      </Text>
      <TeamsGiven teams={teams} />
      <Text size="sm" c="dimmed">
        Signed in as {me.user.displayName}.
        {status === 'pending' && ` The link works until ${formatDateTime(expiresAt)}.`}
      </Text>
      {unusable ? (
        <Alert color="yellow" title={unusable.title} role="alert">
          {unusable.text}
        </Alert>
      ) : member ? (
        <Alert color="blue" title="You are already a member">
          <Button component={Link} to={homePath(member)} variant="light" mt="xs">
            Open {organization.name}
          </Button>
        </Alert>
      ) : (
        <Group>
          <Button
            loading={accept.isPending}
            onClick={() =>
              accept.mutate({ params: { path: { token } } }, { onSuccess: (joined) => navigate(homeOf(joined)) })
            }
          >
            Accept and join {organization.name}
          </Button>
        </Group>
      )}
      {accept.isError && <RefusalAlert error={accept.error} title="Not joined" returnTo={path} />}
      {(refusedForEmail || unusable) && (
        <Group>
          <Button variant="default" loading={logout.isPending} onClick={() => logout.mutate({})}>
            Sign in as someone else
          </Button>
        </Group>
      )}
    </Frame>
  );
}
