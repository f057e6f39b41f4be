import { Button, Group, List, Modal, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { DialogError, DialogFooter, useDialogAction } from '../../../components/dialog-action';
import { QueryError } from '../../../components/query-error';
import { SelectField } from '../../../components/select-field';
import { ShownOnceDialog } from '../../../components/shown-once-dialog';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useServiceAccounts } from '../../../lib/queries/get-service-accounts';
import { useMemberDeparture, useMoveTokenToServiceAccount } from '../api/departure';

type Token = Schemas['ApiToken'];

/**
 * Moves a leaving member's token's work to a service account: a new token there with the same name
 * and scopes, its secret shown once to hand to the integration. The old token's secret is never
 * transferred; it stops with the membership.
 */
function MoveToken({ token }: { token: Token }) {
  const { org } = useOrg();
  const accounts = useServiceAccounts(org.slug);
  const move = useMoveTokenToServiceAccount();
  const [accountId, setAccountId] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const live = (accounts.data?.serviceAccounts ?? []).filter((a) => !a.disabledAt);
  const expiresAt = token.expiresAt && Date.parse(token.expiresAt) > Date.now() ? token.expiresAt : null;
  return (
    <Stack gap={4}>
      <Group align="flex-end" wrap="wrap" gap="xs">
        <SelectField
          label={`Move “${token.name}” to`}
          size="xs"
          w={220}
          placeholder={live.length ? 'A service account' : 'No service account yet'}
          data={live.map((a) => ({ value: a.id, label: a.name }))}
          value={accountId}
          onChange={setAccountId}
          disabled={live.length === 0}
        />
        <Button
          size="xs"
          variant="light"
          disabled={!accountId}
          loading={move.isPending}
          onClick={() =>
            move.mutate(
              {
                params: { path: { orgSlug: org.slug } },
                body: { name: token.name, scopes: token.scopes, expiresAt, serviceAccountId: accountId! },
              },
              {
                onSuccess: (made) => {
                  notifySuccess(`Made “${made.name}” on ${made.owner.displayName}`);
                  setCreated({ name: made.name, token: made.token });
                },
              },
            )
          }
        >
          Make the new token
        </Button>
      </Group>
      {accounts.isError && <QueryError error={accounts.error} title="Could not load the service accounts" />}
      <DialogError error={move.error} title="The token was not made" />
      <ShownOnceDialog
        opened={created !== null}
        onClose={() => setCreated(null)}
        title={`Token “${created?.name ?? ''}” made on the service account`}
        value={created?.token ?? ''}
        valueTestId="moved-token"
        copyLabel="Copy token"
        warning="This is the only time the token is shown. Give it to the integration before you remove the member."
      >
        <Text size="xs" c="dimmed">
          It acts as the service account, with its role, teams and grants, and keeps working whoever leaves.
        </Text>
      </ShownOnceDialog>
    </Stack>
  );
}

/**
 * Revoking a member, after showing what stops with them (their personal tokens, each of which can
 * be moved to a service account first) and what stays (the webhooks and budgets they created).
 */
export function RevokeMemberAction({
  member,
  disabled,
  onRevoke,
}: {
  member: Schemas['OrgMember'];
  disabled: boolean;
  onRevoke: () => Promise<unknown>;
}) {
  const { org } = useOrg();
  const [opened, { open, close }] = useDisclosure(false);
  const departure = useMemberDeparture(org.slug, member.userId, opened);
  const { pending, error, run } = useDialogAction(opened, close);
  const stays = departure.data?.stays;
  return (
    <>
      <Button
        color="red"
        variant="light"
        size="xs"
        disabled={disabled}
        aria-label={`Revoke ${member.displayName}`}
        onClick={open}
      >
        Revoke
      </Button>
      <Modal opened={opened} onClose={close} title={`Revoke ${member.displayName}?`} centered size="lg">
        <Stack>
          <Text>
            {member.displayName} ({member.imOpenId}) loses access to {org.name} now, with every team membership and
            project grant through it.
          </Text>
          {departure.isError && <QueryError error={departure.error} title="Could not tell what stops and stays" />}
          {departure.isPending && <Text c="dimmed">Finding what stops and what stays…</Text>}
          {departure.data && (
            <>
              <section aria-labelledby="departure-stops">
                <Title order={3} size="h5" id="departure-stops">
                  Stops with them
                </Title>
                {departure.data.stops.apiTokens.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    No personal API token.
                  </Text>
                ) : (
                  <List spacing="sm" aria-label="Personal tokens that stop">
                    {departure.data.stops.apiTokens.map((token) => (
                      <List.Item key={token.id}>
                        <Text size="sm">
                          Token “{token.name}” ({token.prefix}…, {token.scopes.join(', ')})
                        </Text>
                        <MoveToken token={token} />
                      </List.Item>
                    ))}
                  </List>
                )}
              </section>
              <section aria-labelledby="departure-stays">
                <Title order={3} size="h5" id="departure-stays">
                  Stays, as the organization’s
                </Title>
                {stays && stays.webhooks.length + stays.budgets.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    Nothing they created.
                  </Text>
                ) : (
                  <List size="sm" aria-label="What they created that stays">
                    {stays?.webhooks.map((w) => (
                      <List.Item key={w.id}>Webhook to {w.label}</List.Item>
                    ))}
                    {stays?.budgets.map((b) => (
                      <List.Item key={b.id}>Budget “{b.label}”</List.Item>
                    ))}
                  </List>
                )}
              </section>
            </>
          )}
          <DialogFooter
            label="Revoke membership"
            pending={pending}
            color="red"
            error={error}
            onCancel={close}
            onConfirm={() => run(onRevoke)}
          />
        </Stack>
      </Modal>
    </>
  );
}
