import type { LoaderFunctionArgs } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { getCapacityPolicyQueryOptions } from '../../../features/capacity/api/get-capacity-policy';
import { CapacityTable } from '../../../features/capacity/components/capacity-table';
import { requireOrgAdmin } from '../../../lib/authorization';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  requireOrgAdmin(await queryClient.ensureQueryData(getMeQueryOptions()), orgSlug);
  await queryClient.prefetchQuery(getCapacityPolicyQueryOptions(orgSlug));
  return null;
}

export function Component() {
  return (
    <>
      <PageHeader title="Capacity" />
      <CapacityTable />
    </>
  );
}
