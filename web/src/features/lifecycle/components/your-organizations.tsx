import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ConfirmAction } from '../../../components/confirm-action';
import { homePath, type Me } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useLeaveOrganization } from '../api';

/** The person's organizations with their role and teams; each they may leave (the last OWNER cannot). */
export function YourOrganizations({ me }: { me: Me }) {
  const leave = useLeaveOrganization();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="your-organizations-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="your-organizations-title">
          Your organizations
        </Title>
        {me.organizations.length === 0 && <Text size="sm">You are a member of no organization.</Text>}
        {me.organizations.map((org) => (
          <Group key={org.slug} justify="space-between" wrap="wrap" data-testid="my-organization">
            <Stack gap={2}>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                <Anchor component={Link} to={homePath(org)}>
                  {org.name}
                </Anchor>{' '}
                · {org.role}
                {org.status === 'DELETING' ? ' · being deleted' : ''}
              </Text>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {org.teams.length === 0
                  ? 'In no team'
                  : `Teams: ${org.teams.map((team) => `${team.name} (${team.slug})`).join(', ')}`}
              </Text>
            </Stack>
            <ConfirmAction
              label="Leave"
              ariaLabel={`Leave ${org.name}`}
              title={`Leave ${org.name}?`}
              message={
                org.role === 'OWNER'
                  ? 'You lose access at once. The last OWNER cannot leave: transfer the ownership first.'
                  : 'You lose access at once; an admin can add you again later.'
              }
              confirmLabel="Leave"
              onConfirm={() =>
                leave
                  .mutateAsync({ params: { path: { orgSlug: org.slug } } })
                  .then(() => notifySuccess(`You left ${org.name}`))
              }
            />
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
