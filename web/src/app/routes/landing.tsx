/** `/`: where a sign-in lands. Signed in → the first organization; signed out → the sign-in page. */
import { Anchor, Button, Container, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, redirect, useLoaderData } from 'react-router';
import { WhoYouAre } from '../../features/auth/components/who-you-are';
import { MyInvitations } from '../../features/invitations/components/my-invitations';
import { homePath } from '../../lib/authorization';
import { getMeQueryOptions } from '../../lib/queries/get-me';
import { useLogout } from '../../lib/queries/logout';
import { queryClient } from '../../lib/query-client';

export async function loader() {
  const me = await queryClient.fetchQuery(getMeQueryOptions());
  if (!me) throw redirect('/signin');
  const first = me.organizations[0];
  if (first) throw redirect(homePath(first));
  return { me };
}

/**
 * Signed in and a member of no organization: who they are (what an admin needs to add them), the
 * invitations addressed to them, how to ask, and the ways out (another sign-in, sign out).
 */
export function Component() {
  const { me } = useLoaderData<typeof loader>();
  const logout = useLogout('/signin');
  return (
    <Container size="sm" py="xl" component="main">
      <Paper withBorder p="xl" radius="md">
        <Stack>
          <Title order={1}>Org Admin</Title>
          <Text>You are signed in, but you are not a member of any organization yet.</Text>
          <WhoYouAre me={me} />
          <MyInvitations />
          <Stack gap="xs" component="section" aria-labelledby="how-to-ask-title">
            <Title order={2} size="h4" id="how-to-ask-title">
              How to get in
            </Title>
            <List spacing="xs">
              <List.Item>
                Ask an admin of your organization to invite you or add you: send them your email or the imOpenId above.
              </List.Item>
              <List.Item>Open the invitation link you were sent, if you have one.</List.Item>
              <List.Item>
                If your company signs in with its own provider, sign in on its page (<code>/signin?org=</code> and the
                organization's name in the address); its directory may add you.
              </List.Item>
              <List.Item>
                Once you are a member, ask for access to a project from its page; its managers decide.
              </List.Item>
            </List>
          </Stack>
          <Group>
            <Button component={Link} to="/signin" variant="default">
              Sign in another way
            </Button>
            <Button variant="default" loading={logout.isPending} onClick={() => logout.mutate({})}>
              Sign out
            </Button>
          </Group>
          <Group gap="md">
            <Anchor component={Link} to="/profile">
              Your profile and connected sign-ins
            </Anchor>
            <Anchor href="/openapi.yaml">The API contract</Anchor>
          </Group>
        </Stack>
      </Paper>
    </Container>
  );
}
