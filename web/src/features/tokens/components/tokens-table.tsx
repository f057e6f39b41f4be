import { formatDateTime } from '../../../lib/format';
import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import { ConfirmAction } from '../../../components/confirm-action';
import { QueryError } from '../../../components/query-error';
import type { Schemas } from '../../../lib/api-client';
import { isOrgAdmin, useOrg } from '../../../lib/authorization';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useRevokeToken, useTokens } from '../api/tokens';
import { RotateTokenAction } from './rotate-token-dialog';

type Token = Schemas['ApiToken'];

const when = (at: string | null) => (at ? formatDateTime(at) : '—');

function statusOf(token: Token, now: number): 'Active' | 'Revoked' | 'Expired' {
  if (token.revokedAt) return 'Revoked';
  if (token.expiresAt && Date.parse(token.expiresAt) <= now) return 'Expired';
  return 'Active';
}

function RevokeCell({ token }: { token: Token }) {
  const { org } = useOrg();
  const revoke = useRevokeToken();
  return (
    <ConfirmAction
      label="Revoke"
      ariaLabel={`Revoke ${token.name}`}
      title={`Revoke “${token.name}”?`}
      message={`Programs using ${token.prefix}… are refused from their next request on. This cannot be undone.`}
      confirmLabel="Revoke token"
      onConfirm={() =>
        revoke
          .mutateAsync({ params: { path: { orgSlug: org.slug, tokenId: token.id } } })
          .then(() => notifySuccess(`Revoked ${token.name}`))
          .catch((error: unknown) => {
            notifyError(error, 'The token was not revoked');
            throw error;
          })
      }
    />
  );
}

/**
 * The member's tokens (an org admin's list holds everyone's), or one service account's, newest
 * first, each with its expiry and when it was last used.
 */
export function TokensTable({ serviceAccountId }: { serviceAccountId?: string } = {}) {
  const { org } = useOrg();
  const { data, error, isPending } = useTokens(org.slug, serviceAccountId);
  if (error) return <QueryError error={error} title="Could not load the tokens" />;
  if (isPending) return <Text c="dimmed">Loading tokens…</Text>;
  const now = Date.now();
  const admin = isOrgAdmin(org.role);
  if (data.tokens.length === 0) return <Text c="dimmed">No tokens yet.</Text>;
  const label = serviceAccountId ? 'Service account tokens' : 'API tokens';
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table striped aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Token</Table.Th>
            <Table.Th>Scopes</Table.Th>
            {admin && !serviceAccountId && <Table.Th>Owner</Table.Th>}
            <Table.Th>Created</Table.Th>
            <Table.Th>Expires</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.tokens.map((token) => {
            const status = statusOf(token, now);
            return (
              <Table.Tr key={token.id}>
                <Table.Td>
                  <Stack gap={0}>
                    <Text size="sm" fw={500}>
                      {token.name}
                    </Text>
                    <Text size="xs" c="dimmed" ff="monospace">
                      {token.prefix}… · {token.publicId}
                    </Text>
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {token.scopes.map((scope) => (
                      <Badge key={scope} variant="light" size="sm" tt="none">
                        {scope}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                {admin && !serviceAccountId && (
                  <Table.Td>
                    <Stack gap={0}>
                      <Text size="sm">{token.owner.displayName}</Text>
                      {token.owner.type === 'serviceAccount' && (
                        <Text size="xs" c="dimmed">
                          service account
                        </Text>
                      )}
                    </Stack>
                  </Table.Td>
                )}
                <Table.Td>{when(token.createdAt)}</Table.Td>
                <Table.Td>{token.expiresAt ? when(token.expiresAt) : 'Never'}</Table.Td>
                <Table.Td>{when(token.lastUsedAt)}</Table.Td>
                <Table.Td>
                  <Badge variant={status === 'Active' ? 'filled' : 'default'}>{status}</Badge>
                </Table.Td>
                <Table.Td>
                  {status === 'Active' && (
                    <Group gap="xs" wrap="nowrap">
                      <RotateTokenAction token={token} />
                      <RevokeCell token={token} />
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
