import { Anchor, Badge, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PagedTable } from '../../../components/paged-table';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { useTeamProjects } from '../../../lib/queries/get-team-projects';

type Team = Schemas['TeamRow'];

/** The projects the team holds a grant on, each linked to its page, with the grant's role. */
export function TeamProjects({ team }: { team: Team }) {
  const { org } = useOrg();
  const projects = useTeamProjects(org.slug, team.id);
  const base = `/o/${encodeURIComponent(org.slug)}/projects`;
  return (
    <Paper withBorder p="md">
      <Stack>
        <div>
          <Title order={2} size="h4">
            Projects
          </Title>
          <Text size="sm" c="dimmed">
            What this team's members can open through the team. Grants are given on each project's page.
          </Text>
        </div>
        <PagedTable
          query={projects}
          rowsOf={(page) => page.projects}
          label="Team projects"
          headers={[{ label: 'Project' }, { label: 'Role', width: 110 }]}
          renderRow={(p) => (
            <Table.Tr key={p.grantId}>
              <Table.Td>
                <Anchor component={Link} to={`${base}/${encodeURIComponent(p.projectId)}`}>
                  {p.projectName}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Badge variant="light">{p.role}</Badge>
              </Table.Td>
            </Table.Tr>
          )}
          empty="This team holds no grant on a project."
        />
      </Stack>
    </Paper>
  );
}
