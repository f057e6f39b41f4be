import { Anchor, Badge, Group, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { QueryError } from '../../../components/query-error';
import { useOrg } from '../../../lib/authorization';
import { formatDate } from '../../../lib/format';
import { useServiceAccounts } from '../../../lib/queries/get-service-accounts';

/** The organization's service accounts by name, each linking to its page. */
export function ServiceAccountsTable() {
  const { org } = useOrg();
  const { data, error, isPending } = useServiceAccounts(org.slug);
  if (error) return <QueryError error={error} title="Could not load the service accounts" />;
  if (isPending) return <Text c="dimmed">Loading service accounts…</Text>;
  if (data.serviceAccounts.length === 0) return <Text c="dimmed">No service accounts yet.</Text>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped aria-label="Service accounts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Teams</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.serviceAccounts.map((account) => (
            <Table.Tr key={account.id}>
              <Table.Td>
                <Anchor component={Link} to={account.id} fw={500}>
                  {account.name}
                </Anchor>
                {account.description && (
                  <Text size="xs" c="dimmed">
                    {account.description}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{account.role}</Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {account.teams.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      none
                    </Text>
                  ) : (
                    account.teams.map((team) => (
                      <Badge key={team.id} variant="light" tt="none">
                        {team.name}
                      </Badge>
                    ))
                  )}
                </Group>
              </Table.Td>
              <Table.Td>{formatDate(account.createdAt)}</Table.Td>
              <Table.Td>
                <Badge variant={account.disabledAt ? 'default' : 'filled'}>
                  {account.disabledAt ? 'Disabled' : 'Enabled'}
                </Badge>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
