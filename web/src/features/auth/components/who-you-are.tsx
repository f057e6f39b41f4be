import { Code, CopyButton, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { QueryError } from '../../../components/query-error';
import type { Me } from '../../../lib/authorization';
import { useMyIdentities } from '../api/my-identities';

/**
 * Who the signed-in person is, as an admin needs it to add or invite them: their name, their
 * imOpenId (the id `addMember` and the console take) and each sign-in with the address its
 * provider verified.
 */
export function WhoYouAre({ me }: { me: Me }) {
  const identities = useMyIdentities();
  return (
    <Stack gap="xs" component="section" aria-labelledby="who-you-are-title">
      <Title order={2} size="h4" id="who-you-are-title">
        Who you are
      </Title>
      <Text>
        Signed in as <strong>{me.user.displayName}</strong>.
      </Text>
      <Group gap="xs" wrap="wrap">
        <Text size="sm">imOpenId</Text>
        <Code style={{ wordBreak: 'break-all' }}>{me.user.imOpenId}</Code>
        <CopyButton value={me.user.imOpenId}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      {identities.isError && <QueryError error={identities.error} title="Could not load your sign-ins" />}
      {identities.isPending && <Text c="dimmed">Loading your sign-ins…</Text>}
      {identities.data && identities.data.identities.length > 0 && (
        <Table.ScrollContainer minWidth={0}>
          <Table aria-label="Your sign-ins">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Signed in with</Table.Th>
                <Table.Th>Email</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {identities.data.identities.map((identity) => (
                <Table.Tr key={identity.id}>
                  <Table.Td>{identity.providerLabel}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{identity.email ?? 'none verified'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {identities.data?.identities.length === 0 && (
        <Text size="sm" c="dimmed">
          You signed in with a one-time link; no identity provider is connected to you.
        </Text>
      )}
    </Stack>
  );
}
