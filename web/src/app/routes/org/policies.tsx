import type { LoaderFunctionArgs } from 'react-router';
import { Stack } from '@mantine/core';
import { PageHeader } from '../../../components/page-header';
import { getPoliciesQueryOptions } from '../../../features/policies/api/policies';
import { EffectiveResult } from '../../../features/policies/components/effective-result';
import { PoliciesList } from '../../../features/policies/components/policies-list';
import { CreatePolicyForm } from '../../../features/policies/components/policy-form';
import { requireOrgAdmin } from '../../../lib/authorization';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { getExplorerQueryOptions } from '../../../lib/queries/get-explorer';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  requireOrgAdmin(await queryClient.ensureQueryData(getMeQueryOptions()), orgSlug);
  await Promise.all([
    queryClient.prefetchQuery(getPoliciesQueryOptions(orgSlug)),
    queryClient.prefetchQuery(getExplorerQueryOptions(orgSlug)),
  ]);
  return null;
}

/** `/o/{slug}/policies`: usage policies per scope, and their effective result for a project and a member. */
export function Component() {
  return (
    <>
      <PageHeader title="Usage policies" />
      <Stack>
        <CreatePolicyForm />
        <PoliciesList />
        <EffectiveResult />
      </Stack>
    </>
  );
}
