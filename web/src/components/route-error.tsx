import { Alert, Anchor, Container, Stack, Title } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { errorMessage } from '../lib/api-client';

/** A screen that failed to load says why, with the server's message, and offers a way out. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : errorMessage(error);
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>This page could not be shown</Title>
        <Alert color="red" title="Error">
          {message}
        </Alert>
        <Anchor component={Link} to="/">
          Back to the start
        </Anchor>
      </Stack>
    </Container>
  );
}
