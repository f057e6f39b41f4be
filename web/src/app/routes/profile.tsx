/** `/profile`: who the person is to this hub, their name, organizations, sessions and sign-ins. */
import { Anchor, Avatar, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, redirect, useSearchParams } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { getMeQueryOptions } from '../../lib/queries/get-me';
import { ConnectedSignIns } from '../../features/auth/components/connected-sign-ins';
import { DisplayNameForm } from '../../features/auth/components/display-name-form';
import { MyAccessRequests } from '../../features/projects/components/my-access-requests';
import { MySessions } from '../../features/auth/components/my-sessions';
import { homePath } from '../../lib/authorization';
import { YourOrganizations } from '../../features/lifecycle/components/your-organizations';
import { queryClient } from '../../lib/query-client';

export async function loader() {
  const me = await queryClient.ensureQueryData(getMeQueryOptions());
  if (!me) throw redirect(`/signin?returnTo=${encodeURIComponent('/profile')}`);
  return null;
}

export function Component() {
  const { data: me } = useQuery(getMeQueryOptions());
  const [params] = useSearchParams();
  if (!me) return <PageLoader />;
  const first = me.organizations[0];
  return (
    <Container size="sm" py="xl" component="main">
      <Stack>
        <Anchor component={Link} to={first ? homePath(first) : '/'}>
          {first ? `Back to ${first.name}` : 'Back'}
        </Anchor>
        <Title order={1}>Your profile</Title>
        <Group wrap="nowrap">
          <Avatar src={me.user.avatarUrl} alt="" radius="xl" />
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
              {me.user.displayName}
            </Text>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              imOpenId {me.user.imOpenId}: give it to an organization's admin to be added
            </Text>
          </Stack>
        </Group>
        <DisplayNameForm key={me.user.displayName} user={me.user} />
        <YourOrganizations me={me} />
        <MyAccessRequests />
        <MySessions />
        <ConnectedSignIns error={params.get('error')} />
      </Stack>
    </Container>
  );
}
