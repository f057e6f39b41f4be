import type { LoaderFunctionArgs } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getAgentLibraryQueryOptions } from '../../../features/agents/api/get-agent-library';
import { getAgentRolesQueryOptions } from '../../../features/agents/api/get-agent-roles';
import { getAgentSkillsQueryOptions } from '../../../features/agents/api/get-agent-skills';
import { LibraryExplorer } from '../../../features/agents/components/library-explorer';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { requireOrgAdmin } from '../../../lib/authorization';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  requireOrgAdmin(await queryClient.ensureQueryData(getMeQueryOptions()), orgSlug);
  await Promise.all([
    queryClient.prefetchQuery(getAgentLibraryQueryOptions(orgSlug)),
    queryClient.prefetchQuery(getAgentRolesQueryOptions(orgSlug)),
    queryClient.prefetchQuery(getAgentSkillsQueryOptions(orgSlug)),
  ]);
  return null;
}

export function Component() {
  return (
    <>
      <PageHeader title="Agent library" />
      <LibraryExplorer />
    </>
  );
}
