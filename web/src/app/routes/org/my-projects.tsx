import type { LoaderFunctionArgs } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getMyProjectsQueryOptions } from '../../../features/projects/api/get-my-projects';
import { MyProjects } from '../../../features/projects/components/my-projects';
import { getSettingsQueryOptions } from '../../../lib/queries/get-settings';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  await Promise.all([
    queryClient.prefetchQuery(getMyProjectsQueryOptions(orgSlug)),
    queryClient.prefetchQuery(getSettingsQueryOptions(orgSlug)),
  ]);
  return null;
}

export function Component() {
  return (
    <>
      <PageHeader title="My projects" />
      <MyProjects />
    </>
  );
}
