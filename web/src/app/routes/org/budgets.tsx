import type { LoaderFunctionArgs } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { getBudgetsQueryOptions } from '../../../features/budgets/api/budgets';
import { CreateBudgetForm } from '../../../features/budgets/components/budget-form';
import { BudgetsList } from '../../../features/budgets/components/budgets-list';
import { getExplorerQueryOptions } from '../../../lib/queries/get-explorer';
import { UsageTabs } from '../../../features/usage/components/usage-tabs';
import { requireOrgAdmin } from '../../../lib/authorization';
import { queryClient } from '../../../lib/query-client';

/** Org admins set spend limits per period and see this period's spend against each. */
export async function loader({ params }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  requireOrgAdmin(await queryClient.ensureQueryData(getMeQueryOptions()), orgSlug);
  await Promise.all([
    queryClient.prefetchQuery(getBudgetsQueryOptions(orgSlug)),
    queryClient.prefetchQuery(getExplorerQueryOptions(orgSlug)),
  ]);
  return null;
}

export function Component() {
  return (
    <>
      <PageHeader title="Budgets">
        <UsageTabs />
      </PageHeader>
      <CreateBudgetForm />
      <BudgetsList />
    </>
  );
}
