import { Alert, Button, Group, Text } from '@mantine/core';
import { errorMessage, type Schemas } from '../lib/api-client';

type RequiredSignInInfo = NonNullable<Schemas['Error']['error']['requiredSignIn']>;

/** The provider an `sso_required` refusal names (openapi.yaml `Error.requiredSignIn`), if it is one. */
export function requiredSignInOf(error: unknown): RequiredSignInInfo | undefined {
  if (typeof error !== 'object' || error === null || !('error' in error)) return undefined;
  const inner = (error as Schemas['Error']).error;
  return inner?.code === 'sso_required' ? inner.requiredSignIn : undefined;
}

/** Where a button signs in through `providerId`, coming back to `returnTo`. */
export const startPath = (providerId: string, returnTo: string) =>
  `/auth/${encodeURIComponent(providerId)}/start?returnTo=${encodeURIComponent(returnTo)}`;

/**
 * A refusal because the person's domain requires its own sign-in: the server's words, which name
 * the provider, and a button that signs in with it and comes back here.
 */
export function RequiredSignInAlert({
  required,
  message,
  returnTo,
  title = 'Sign in with your company’s provider',
}: {
  required: Pick<RequiredSignInInfo, 'providerId' | 'providerLabel'>;
  message: string;
  returnTo: string;
  title?: string;
}) {
  return (
    <Alert color="yellow" title={title} role="alert">
      <Text size="sm">{message}</Text>
      <Group mt="xs">
        <Button component="a" href={startPath(required.providerId, returnTo)}>
          Sign in with {required.providerLabel}
        </Button>
      </Group>
    </Alert>
  );
}

/** A failed action's alert: the `sso_required` one with its button, else the server's message. */
export function RefusalAlert({ error, title, returnTo }: { error: unknown; title: string; returnTo: string }) {
  const required = requiredSignInOf(error);
  if (required) return <RequiredSignInAlert required={required} message={errorMessage(error)} returnTo={returnTo} />;
  return (
    <Alert color="red" title={title} role="alert">
      {errorMessage(error)}
    </Alert>
  );
}
