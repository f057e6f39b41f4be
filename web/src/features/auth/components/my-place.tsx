import { Anchor, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { Schemas } from '../../../lib/api-client';
import { homePath } from '../../../lib/authorization';

/** "Your organizations": the person's role and teams in each organization they are in. */
export function MyOrganizations({ organizations }: { organizations: Schemas['OrgMembership'][] }) {
  return (
    <Stack component="section" aria-labelledby="my-organizations-title">
      <Title order={2} size="h3" id="my-organizations-title">
        Your organizations
      </Title>
      {organizations.length === 0 && <Text>You are not a member of any organization yet.</Text>}
      {organizations.map((org) => (
        <Card key={org.id} withBorder data-testid="my-organization">
          <Stack gap={4}>
            <Group gap="xs">
              <Anchor component={Link} to={homePath(org)} fw={500}>
                {org.name}
              </Anchor>
              <Badge variant="light">{org.role}</Badge>
            </Group>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {org.teams.length === 0
                ? 'In no team'
                : `Teams: ${org.teams.map((team) => `${team.name} (${team.slug})`).join(', ')}`}
            </Text>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
