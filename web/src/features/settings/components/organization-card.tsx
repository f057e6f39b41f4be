import { Code, Paper, Table, Title } from '@mantine/core';
import { QueryError } from '../../../components/query-error';
import { useOrg } from '../../../lib/authorization';
import { useOrganization } from '../api/get-organization';

/** What an integrator needs to know of the organization: its slug and id, and the caller's role in it. */
export function OrganizationCard() {
  const { org } = useOrg();
  const organization = useOrganization(org.slug);
  if (organization.isError) return <QueryError error={organization.error} title="Could not load the organization" />;
  const data = organization.data;
  return (
    <Paper withBorder p="md" mb="md" aria-labelledby="organization-title">
      <Title order={2} size="h4" id="organization-title" mb="sm">
        Organization
      </Title>
      <Table variant="vertical" withTableBorder={false} aria-label="Organization">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={160}>Name</Table.Th>
            <Table.Td>{data?.organization.name ?? org.name}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Slug (in API paths)</Table.Th>
            <Table.Td>
              <Code>{org.slug}</Code>
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Id</Table.Th>
            <Table.Td>
              <Code>{data?.organization.id ?? '…'}</Code>
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Status</Table.Th>
            <Table.Td>{data?.organization.status ?? '…'}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Your role</Table.Th>
            <Table.Td>{data?.actorRole ?? org.role}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
