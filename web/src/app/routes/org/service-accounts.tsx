import type { LoaderFunctionArgs } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { CreateServiceAccountForm } from '../../../features/service-accounts/components/create-service-account-form';
import { ServiceAccountsTable } from '../../../features/service-accounts/components/service-accounts-table';
import { requireOrgAdmin } from '../../../lib/authorization';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { getServiceAccountsQueryOptions } from '../../../lib/queries/get-service-accounts';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  requireOrgAdmin(await queryClient.ensureQueryData(getMeQueryOptions()), orgSlug);
  await queryClient.prefetchQuery(getServiceAccountsQueryOptions(orgSlug));
  return null;
}

export function Component() {
  return (
    <>
      <PageHeader title="Service accounts" />
      <CreateServiceAccountForm />
      <ServiceAccountsTable />
    </>
  );
}
