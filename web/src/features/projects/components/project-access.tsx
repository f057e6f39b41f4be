import { Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { PagedTable } from '../../../components/paged-table';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { useProjectAccess } from '../../../lib/queries/get-project-access';

type Entry = Schemas['ProjectAccessEntry'];
type Path = Schemas['AccessPath'];

const LEVEL_COLOR: Record<Entry['level'], string> = { MANAGE: 'grape', EDIT: 'blue', READ: 'gray' };

/** A path as a chip: the member's own grant, a team's (named), or org-admin oversight. */
function pathLabel(path: Path): string {
  if (path.type === 'user') return `direct · ${path.role}`;
  if (path.type === 'team') return `team ${path.teamName} · ${path.role}`;
  return `org admin · ${path.role}`;
}

function AccessRow({ entry }: { entry: Entry }) {
  return (
    <Table.Tr data-testid="access-row">
      <Table.Td>
        <Text size="sm">{entry.displayName}</Text>
        <Text size="xs" c="dimmed">
          {entry.imOpenId}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge color={LEVEL_COLOR[entry.level]} variant="light">
          {entry.level}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Group gap={4}>
          {entry.via.map((path) => (
            <Badge
              key={`${path.type}:${path.teamId ?? ''}`}
              variant="default"
              tt="none"
              h="auto"
              py={2}
              styles={{ label: { whiteSpace: 'normal', overflow: 'visible' } }}
            >
              {pathLabel(path)}
            </Badge>
          ))}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** "Who can open this": every active member who reaches the project, the strongest level first. */
export function ProjectAccess({ projectId }: { projectId: string }) {
  const { org } = useOrg();
  const access = useProjectAccess(org.slug, projectId);
  return (
    <Paper withBorder p="md">
      <Stack>
        <div>
          <Title order={2} size="h4">
            Who can open this
          </Title>
          <Text size="sm" c="dimmed">
            Each person's level and every path that gives it: their own grant, a team's grant, or org-admin oversight
            (read only).
          </Text>
        </div>
        <PagedTable
          query={access}
          rowsOf={(page) => page.access}
          label="Who can open this"
          headers={[{ label: 'Person' }, { label: 'Level', width: 100 }, { label: 'Through' }]}
          renderRow={(entry) => <AccessRow key={entry.userId} entry={entry} />}
          empty="No one can open this project."
        />
      </Stack>
    </Paper>
  );
}
