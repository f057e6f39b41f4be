/** `/`: where a sign-in lands. Signed in → the first organization; signed out → the sign-in page. */
import { Anchor, Container, Stack, Text, Title } from '@mantine/core';
import { Link, redirect, useLoaderData } from 'react-router';
import { getMeQueryOptions } from '../../lib/queries/get-me';
import { MyInvitations } from '../../features/invitations/components/my-invitations';
import { homePath } from '../../lib/authorization';
import { queryClient } from '../../lib/query-client';

export async function loader() {
  const me = await queryClient.fetchQuery(getMeQueryOptions());
  if (!me) throw redirect('/signin');
  const first = me.organizations[0];
  if (first) throw redirect(homePath(first));
  return { name: me.user.displayName };
}

export function Component() {
  const { name } = useLoaderData<typeof loader>();
  return (
    <Container size="sm" py="xl" component="main">
      <Stack>
        <Title order={1}>Org Admin</Title>
        <Text>Signed in as {name}, but you are not an active member of any organization.</Text>
        <MyInvitations />
        <Anchor component={Link} to="/profile">
          Your profile and connected sign-ins
        </Anchor>
        <Anchor href="/openapi.yaml">The API contract</Anchor>
      </Stack>
    </Container>
  );
}
