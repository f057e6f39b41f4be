import type { LoaderFunctionArgs } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { getBudgetsQueryOptions } from '../../../features/budgets/api/budgets';
import { BudgetsAtRisk } from '../../../features/budgets/components/budgets-at-risk';
import { getExplorerQueryOptions } from '../../../lib/queries/get-explorer';
import { getUsageBreakdownQueryOptions } from '../../../lib/queries/get-usage-breakdown';
import { getUsageReportQueryOptions } from '../../../features/usage/api/get-usage-report';
import { getUsageSeriesQueryOptions } from '../../../features/usage/api/get-usage-series';
import { readSeriesOptions } from '../../../features/usage/components/series-model';
import { apiQuery, breakdownQuery, readFilter } from '../../../features/usage/components/usage-filter';
import { UsageScreen } from '../../../features/usage/components/usage-screen';
import { UsageTabs } from '../../../features/usage/components/usage-tabs';
import { requireOrgAdmin } from '../../../lib/authorization';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params, request }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  requireOrgAdmin(await queryClient.ensureQueryData(getMeQueryOptions()), orgSlug);
  // The filter is the URL's: a reload or a shared link loads the same report.
  const search = new URL(request.url).searchParams;
  const query = apiQuery(readFilter(search));
  const { bucket, groupBy } = readSeriesOptions(search);
  await Promise.all([
    query.from && query.to
      ? queryClient.prefetchQuery(
          getUsageSeriesQueryOptions(orgSlug, { ...query, from: query.from, to: query.to, bucket, groupBy }),
        )
      : undefined,
    queryClient.prefetchQuery(getUsageReportQueryOptions(orgSlug, query)),
    queryClient.prefetchQuery(getUsageBreakdownQueryOptions(orgSlug, breakdownQuery(query))),
    queryClient.prefetchQuery(getExplorerQueryOptions(orgSlug)),
    queryClient.prefetchQuery(getBudgetsQueryOptions(orgSlug)),
  ]);
  return null;
}

export function Component() {
  return (
    <>
      <PageHeader title="Usage">
        <UsageTabs />
      </PageHeader>
      <BudgetsAtRisk />
      <UsageScreen />
    </>
  );
}
