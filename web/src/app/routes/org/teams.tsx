import type { LoaderFunctionArgs } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { getTeamsQueryOptions } from '../../../lib/queries/get-teams';
import { CreateTeamForm } from '../../../features/teams/components/create-team-form';
import { TeamsTable } from '../../../features/teams/components/teams-table';
import { requireOrgAdmin } from '../../../lib/authorization';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  requireOrgAdmin(await queryClient.ensureQueryData(getMeQueryOptions()), orgSlug);
  await queryClient.prefetchQuery(getTeamsQueryOptions(orgSlug));
  return null;
}

export function Component() {
  return (
    <>
      <PageHeader title="Teams" />
      <CreateTeamForm />
      <TeamsTable />
    </>
  );
}
