/** `/signin`: the identity providers as buttons, a failed sign-in's message, and the login-link way in. */
import { Alert, Button, Code, Container, List, Paper, Stack, Text, Title } from '@mantine/core';
import { redirect, useLoaderData, useSearchParams } from 'react-router';
import { safeReturnTo } from '../../../../src/identity/return-to';
import { getMeQueryOptions } from '../../lib/queries/get-me';
import { getSignInProvidersQueryOptions } from '../../lib/queries/get-sign-in-providers';
import { signInErrorMessage } from '../../features/auth/sign-in-errors';
import { queryClient } from '../../lib/query-client';

export async function loader() {
  const [me, providers] = await Promise.all([
    queryClient.fetchQuery(getMeQueryOptions()),
    queryClient.fetchQuery(getSignInProvidersQueryOptions()),
  ]);
  if (me) throw redirect('/');
  return providers.providers;
}

export function Component() {
  const providers = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const error = params.get('error');
  // Only a path of this origin is passed on, by the server's own rule; the server checks it again.
  const returnTo = safeReturnTo(params.get('returnTo'));
  return (
    <Container size="sm" py="xl" component="main">
      <Paper withBorder p="xl" radius="md">
        <Stack>
          <Title order={1}>Org Admin</Title>
          <Text>You are not signed in.</Text>
          {error && (
            <Alert color="red" title="Sign-in failed" role="alert">
              {signInErrorMessage(error)}
            </Alert>
          )}
          {providers.length > 0 && (
            <Stack gap="xs" aria-label="Sign-in options" component="section">
              {providers.map((p) => (
                <Button
                  key={p.id}
                  component="a"
                  href={`/auth/${encodeURIComponent(p.id)}/start?returnTo=${encodeURIComponent(returnTo)}`}
                  size="md"
                >
                  {p.label}
                </Button>
              ))}
            </Stack>
          )}
          <Text>
            {providers.length > 0
              ? 'Or sign in with a one-time link. To get one:'
              : 'Sign-in is by a one-time link. To get one:'}
          </Text>
          <List type="ordered" spacing="xs">
            <List.Item>
              Ask an operator of this hub to run <Code>hub login-link &lt;your imOpenId&gt;</Code> on the server.
            </List.Item>
            <List.Item>Open the link it prints within 15 minutes; it works once.</List.Item>
          </List>
          <Text size="sm" c="dimmed">
            You will land on the first organization you belong to.
          </Text>
        </Stack>
      </Paper>
    </Container>
  );
}
