/** `/signin`: the identity providers as buttons, a failed sign-in's message, and the login-link way in. */
import { Alert, Button, Code, Container, Group, List, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, type LoaderFunctionArgs, redirect, useLoaderData, useSearchParams } from 'react-router';
import { RequiredSignInAlert } from '../../components/required-sign-in';
import type { Me } from '../../lib/authorization';
import { useLogout } from '../../lib/queries/logout';
import { safeReturnTo } from '../../../../src/identity/return-to';
import { errorMessage, type Schemas } from '../../lib/api-client';
import { getMeQueryOptions } from '../../lib/queries/get-me';
import { getSignInProvidersQueryOptions } from '../../lib/queries/get-sign-in-providers';
import { signInErrorMessage } from '../../features/auth/sign-in-errors';
import { queryClient } from '../../lib/query-client';

type Provider = Schemas['SignInProvider'];
/** An organization's slug as the sign-in page takes it from `?org=` (else the general page). */
const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** A domain as a refusal names it (`?domain=`), for the provider it requires. */
const DOMAIN = /^[a-z0-9.-]{3,253}$/;

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const org = params.get('org') ?? undefined;
  const error = params.get('error');
  const domain = params.get('domain');
  const [me, answer, required] = await Promise.all([
    queryClient.fetchQuery(getMeQueryOptions()),
    queryClient.fetchQuery(getSignInProvidersQueryOptions(org && SLUG.test(org) ? { org } : {})),
    error === 'sso_required' && domain && DOMAIN.test(domain)
      ? queryClient.fetchQuery(getSignInProvidersQueryOptions({ domain })).then((found) => found.providers)
      : Promise.resolve([]),
  ]);
  // Someone signed in who belongs somewhere goes there; anyone else stays (no loop back to `/`):
  // a person of no organization, a refused sign-in, and an organization's page may sign in another way.
  if (me && me.organizations.length > 0 && error === null && org === undefined) {
    throw redirect(safeReturnTo(params.get('returnTo')));
  }
  return { ...answer, me, required: required.length === 1 ? { domain: domain!, provider: required[0]! } : null };
}

/** A session already in this browser: signing in again replaces it; or go back, or sign out. */
function SignedInAs({ me }: { me: Me }) {
  const logout = useLogout('/signin');
  return (
    <Alert color="blue" title={`Signed in as ${me.user.displayName}`}>
      <Text size="sm">Signing in again replaces this session.</Text>
      <Group mt="xs">
        <Button component={Link} to="/" variant="light">
          Continue as {me.user.displayName}
        </Button>
        <Button variant="default" loading={logout.isPending} onClick={() => logout.mutate({})}>
          Sign out
        </Button>
      </Group>
    </Alert>
  );
}

function ProviderButtons({ providers, returnTo }: { providers: Provider[]; returnTo: string }) {
  return (
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
  );
}

/** The general page: a person types their email, and the options for its domain appear. */
function EmailLookup({ returnTo }: { returnTo: string }) {
  const [email, setEmail] = useState('');
  const [found, setFound] = useState<Provider[] | undefined>();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>();
  return (
    <Stack
      gap="xs"
      component="form"
      aria-label="Sign in with your work email"
      onSubmit={(e: React.FormEvent) => {
        e.preventDefault();
        setPending(true);
        setError(undefined);
        queryClient
          .fetchQuery(getSignInProvidersQueryOptions({ email: email.trim() }))
          .then((answer) => setFound(answer.providers))
          .catch(setError)
          .finally(() => setPending(false));
      }}
    >
      <Group align="flex-end" gap="xs">
        <TextInput
          label="Work email"
          type="email"
          placeholder="you@company.example"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          required
          style={{ flex: '1 1 14rem' }}
        />
        <Button type="submit" variant="default" loading={pending}>
          Continue
        </Button>
      </Group>
      {error !== undefined && (
        <Alert color="red" title="Could not look the address up" role="alert">
          {errorMessage(error)}
        </Alert>
      )}
      {found &&
        (found.length ? (
          <ProviderButtons providers={found} returnTo={returnTo} />
        ) : (
          <Text size="sm">No sign-in is set up for this address. Ask your administrator.</Text>
        ))}
    </Stack>
  );
}

export function Component() {
  const { providers, loginLinks, me, required } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const error = params.get('error');
  const org = params.get('org');
  const orgPage = org !== null && SLUG.test(org);
  // Only a path of this origin is passed on, by the server's own rule; the server checks it again.
  const returnTo = safeReturnTo(params.get('returnTo'));
  return (
    <Container size="sm" py="xl" component="main">
      <Paper withBorder p="xl" radius="md">
        <Stack>
          <Title order={1}>{orgPage ? `Sign in to ${org}` : 'Org Admin'}</Title>
          {me ? <SignedInAs me={me} /> : <Text>You are not signed in.</Text>}
          {error && required ? (
            <RequiredSignInAlert
              title="Sign-in refused"
              required={{ providerId: required.provider.id, providerLabel: required.provider.label }}
              message={`People with an address at ${required.domain} sign in with ${required.provider.label}.`}
              returnTo={returnTo}
            />
          ) : (
            error && (
              <Alert color="red" title="Sign-in failed" role="alert">
                {signInErrorMessage(error)}
              </Alert>
            )
          )}
          {providers.length > 0 && <ProviderButtons providers={providers} returnTo={returnTo} />}
          {!orgPage && <EmailLookup returnTo={returnTo} />}
          {loginLinks !== 'off' && (
            <>
              <Text>
                {providers.length > 0
                  ? 'Or sign in with a one-time link. To get one:'
                  : 'Sign-in is by a one-time link. To get one:'}
              </Text>
              <List type="ordered" spacing="xs">
                <List.Item>
                  Ask an operator of this hub to run <Code>hub login-link &lt;your imOpenId&gt;</Code> on the server
                  {loginLinks === 'break-glass' ? ' (only for break-glass access, audited)' : ''}.
                </List.Item>
                <List.Item>Open the link it prints within 15 minutes; it works once.</List.Item>
              </List>
            </>
          )}
          <Text size="sm" c="dimmed">
            You will land on the first organization you belong to.
          </Text>
        </Stack>
      </Paper>
    </Container>
  );
}
