import type { LoaderFunctionArgs } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getAgentLibraryQueryOptions } from '../../../features/agents/api/get-agent-library';
import { getAgentModelsQueryOptions } from '../../../features/agents/api/get-agent-models';
import { getAgentRolesQueryOptions } from '../../../features/agents/api/get-agent-roles';
import { RolesList } from '../../../features/agents/components/roles-list';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { requireOrgAdmin } from '../../../lib/authorization';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  requireOrgAdmin(await queryClient.ensureQueryData(getMeQueryOptions()), orgSlug);
  await Promise.all([
    queryClient.prefetchQuery(getAgentRolesQueryOptions(orgSlug)),
    queryClient.prefetchQuery(getAgentModelsQueryOptions(orgSlug)),
    queryClient.prefetchQuery(getAgentLibraryQueryOptions(orgSlug)),
  ]);
  return null;
}

export function Component() {
  return (
    <>
      <PageHeader title="Agent roles" />
      <RolesList />
    </>
  );
}
