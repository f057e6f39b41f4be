/** `/`: where the login link lands. Signed in → the first organization; signed out → how to get a link. */
import { Anchor, Container, Stack, Text, Title } from '@mantine/core';
import { redirect, useLoaderData } from 'react-router';
import { getMeQueryOptions } from '../../features/auth/api/get-me';
import { SignedOut } from '../../features/auth/components/signed-out';
import { homePath } from '../../lib/authorization';
import { queryClient } from '../../lib/query-client';

export async function loader() {
  const me = await queryClient.fetchQuery(getMeQueryOptions());
  const first = me?.organizations[0];
  if (first) throw redirect(homePath(first));
  return { signedIn: me !== null, name: me?.user.displayName ?? '' };
}

export function Component() {
  const { signedIn, name } = useLoaderData<typeof loader>();
  if (!signedIn) return <SignedOut />;
  return (
    <Container size="sm" py="xl" component="main">
      <Stack>
        <Title order={1}>Org Admin</Title>
        <Text>
          Signed in as {name}, but you are not an active member of any organization. Ask an organization's admin to add
          you.
        </Text>
        <Anchor href="/openapi.yaml">The API contract</Anchor>
      </Stack>
    </Container>
  );
}
