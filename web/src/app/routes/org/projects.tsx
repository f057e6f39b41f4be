import type { LoaderFunctionArgs } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { getExplorerQueryOptions } from '../../../lib/queries/get-explorer';
import { Explorer } from '../../../features/projects/components/explorer';
import { requireOrgAdmin } from '../../../lib/authorization';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  requireOrgAdmin(await queryClient.ensureQueryData(getMeQueryOptions()), orgSlug);
  await queryClient.prefetchQuery(getExplorerQueryOptions(orgSlug));
  return null;
}

export function Component() {
  return (
    <>
      <PageHeader title="Projects" />
      <Explorer />
    </>
  );
}
