import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ConfirmAction } from '../../../components/confirm-action';
import { QueryError } from '../../../components/query-error';
import { formatDateTime } from '../../../lib/format';
import { useMyIdentities, useRemoveMyIdentity } from '../api/my-identities';
import { useSignInProviders } from '../../../lib/queries/get-sign-in-providers';
import { signInErrorMessage } from '../sign-in-errors';

/** Where a connection comes back to: this page, which shows the outcome. */
const PROFILE = '/profile';

/**
 * "Connected sign-ins": the accounts at identity providers the person signs in with (provider,
 * the email it verified, last used), a "Connect" button per provider (a sign-in started with
 * `link=1`, which adds the account to this person) and "Remove" for each but the last.
 */
export function ConnectedSignIns({ error }: { error: string | null }) {
  const identities = useMyIdentities();
  const providers = useSignInProviders();
  const remove = useRemoveMyIdentity();
  const [connecting, setConnecting] = useState<string | null>(null);
  return (
    <Stack component="section" aria-labelledby="connected-sign-ins-title">
      <Title order={2} size="h3" id="connected-sign-ins-title">
        Connected sign-ins
      </Title>
      {error && (
        <Alert color="red" title="Sign-in not connected" role="alert">
          {signInErrorMessage(error)}
        </Alert>
      )}
      {identities.isError && <QueryError error={identities.error} title="Could not load your sign-ins" />}
      {identities.isPending && <Text c="dimmed">Loading your sign-ins…</Text>}
      {identities.data && identities.data.identities.length === 0 && (
        <Text>You sign in with a one-time link only. Connect a sign-in below to use an identity provider.</Text>
      )}
      {identities.data?.identities.map((identity, _, all) => (
        <Card key={identity.id} withBorder data-testid="connected-sign-in">
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Text fw={500}>{identity.providerLabel}</Text>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {identity.email ?? 'No verified email'} · last used {formatDateTime(identity.lastUsedAt)}
              </Text>
            </Stack>
            {all.length > 1 ? (
              <ConfirmAction
                label="Remove"
                ariaLabel={`Remove ${identity.providerLabel}${identity.email ? ` (${identity.email})` : ''}`}
                title={`Remove ${identity.providerLabel}?`}
                message={
                  `You will no longer sign in with this ${identity.providerLabel} account. ` +
                  'You can connect it again later.'
                }
                confirmLabel="Remove"
                onConfirm={() => remove.mutateAsync({ params: { path: { identityId: identity.id } } })}
              />
            ) : (
              <Text size="sm" c="dimmed">
                Your only sign-in: connect another before removing it.
              </Text>
            )}
          </Group>
        </Card>
      ))}
      {providers.isError && <QueryError error={providers.error} title="Could not load the sign-in options" />}
      {providers.data && providers.data.providers.length > 0 && (
        <Group gap="xs" wrap="wrap" aria-label="Connect another sign-in" role="group">
          {providers.data.providers.map((p) => (
            <Button
              key={p.id}
              component="a"
              variant="light"
              href={`/auth/${encodeURIComponent(p.id)}/start?link=1&returnTo=${encodeURIComponent(PROFILE)}`}
              loading={connecting === p.id}
              onClick={() => setConnecting(p.id)}
            >
              Connect {p.label}
            </Button>
          ))}
        </Group>
      )}
    </Stack>
  );
}
