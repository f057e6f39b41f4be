import type { LoaderFunctionArgs } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getMyUsageQueryOptions, type MyUsageQuery } from '../../../features/usage/api/get-my-usage';
import { MyUsage } from '../../../features/usage/components/my-usage';
import { apiQuery, presetRange } from '../../../features/usage/components/usage-filter';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params, request }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  const preset = new URL(request.url).searchParams.get('window') === 'last-30-days' ? 'last-30-days' : 'this-month';
  const query = apiQuery({ ...presetRange(preset, new Date()), folderId: null }) as MyUsageQuery;
  await queryClient.prefetchQuery(getMyUsageQueryOptions(orgSlug, query));
  return null;
}

export function Component() {
  return (
    <>
      <PageHeader title="My usage" />
      <MyUsage />
    </>
  );
}
