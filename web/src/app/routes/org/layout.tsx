/** `/o/{slug}`: needs a session and an active membership in the organization. */
import { Alert, Anchor, Container, List, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, redirect, useParams } from 'react-router';
import { OrgShell } from '../../../components/layout/org-shell';
import { OrgNotices } from '../../../features/lifecycle/components/org-notices';
import { PageLoader } from '../../../components/page-loader';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { findOrg, homePath, OrgProvider } from '../../../lib/authorization';
import { queryClient } from '../../../lib/query-client';
import { signInPath } from '../../../lib/sign-in-path';

export async function loader({ request }: { request: Request }) {
  const me = await queryClient.ensureQueryData(getMeQueryOptions());
  if (!me) {
    const { pathname, search } = new URL(request.url);
    throw redirect(signInPath(pathname, search));
  }
  return null;
}

export function Component() {
  const { orgSlug } = useParams();
  const { data: me } = useQuery(getMeQueryOptions());
  if (!me) return <PageLoader />;
  const org = findOrg(me, orgSlug);
  if (!org) {
    return (
      <Container size="sm" py="xl" component="main">
        <Stack>
          <Title order={1}>Organization not found</Title>
          <Alert color="yellow">There is no organization “{orgSlug}” among yours.</Alert>
          <List>
            {me.organizations.map((o) => (
              <List.Item key={o.slug}>
                <Anchor component={Link} to={homePath(o)}>
                  {o.name}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </Stack>
      </Container>
    );
  }
  return (
    <OrgProvider value={{ me, org }}>
      <OrgShell notices={<OrgNotices />}>
        <Outlet />
      </OrgShell>
    </OrgProvider>
  );
}
