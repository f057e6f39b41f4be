import { formatDate } from '../../../lib/format';
/**
 * `/o/{slug}/projects/{id}`: detail, who can open it, team access and sessions. A member without a grant is sent
 * to My projects with a notice instead of an error page.
 */
import { Anchor, Badge, Breadcrumbs, Stack, Text } from '@mantine/core';
import { Link, type LoaderFunctionArgs, redirect, useParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { PageLoader } from '../../../components/page-loader';
import { QueryError } from '../../../components/query-error';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { getExplorerQueryOptions } from '../../../lib/queries/get-explorer';
import { getProjectQueryOptions, useProject } from '../../../features/projects/api/get-project';
import { getProjectSessionsQueryOptions } from '../../../features/projects/api/get-project-sessions';
import { getTeamAccessQueryOptions } from '../../../lib/queries/get-team-access';
import { ProjectAccess } from '../../../features/projects/components/project-access';
import { ProjectDetail } from '../../../features/projects/components/project-detail';
import { ProjectSessions } from '../../../features/projects/components/project-sessions';
import { TeamAccess } from '../../../features/projects/components/team-access';
import { AccessRequests } from '../../../features/projects/components/access-requests';
import { ProjectModels } from '../../../features/policies/components/project-models';
import { errorCode } from '../../../lib/api-client';
import { findOrg, isOrgAdmin, useOrg } from '../../../lib/authorization';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  const projectId = params.projectId!;
  const me = await queryClient.ensureQueryData(getMeQueryOptions());
  try {
    await queryClient.fetchQuery(getProjectQueryOptions(orgSlug, projectId));
  } catch (error) {
    if (errorCode(error) === 'project_access_denied') {
      throw redirect(`/o/${encodeURIComponent(orgSlug)}/my-projects?denied=${encodeURIComponent(projectId)}`);
    }
    return null; // the screen shows the server's message
  }
  const admin = isOrgAdmin(findOrg(me, orgSlug)?.role);
  await Promise.all([
    queryClient.prefetchQuery(getProjectSessionsQueryOptions(orgSlug, projectId, 50)),
    queryClient.prefetchQuery(getTeamAccessQueryOptions(orgSlug, projectId)),
    ...(admin ? [queryClient.prefetchQuery(getExplorerQueryOptions(orgSlug))] : []),
  ]);
  return null;
}

export function Component() {
  const { org } = useOrg();
  const { projectId } = useParams();
  const project = useProject(org.slug, projectId!);
  const base = `/o/${encodeURIComponent(org.slug)}`;
  const admin = isOrgAdmin(org.role);
  const crumbs = (
    <Breadcrumbs mb="sm">
      <Anchor component={Link} to={`${base}/${admin ? 'projects' : 'my-projects'}`}>
        {admin ? 'Projects' : 'My projects'}
      </Anchor>
      <Text>{project.data?.name ?? 'Project'}</Text>
    </Breadcrumbs>
  );
  if (project.isPending) return <PageLoader />;
  if (project.isError) {
    return (
      <>
        {crumbs}
        <PageHeader title="Project" />
        <QueryError error={project.error} />
      </>
    );
  }
  const p = project.data;
  return (
    <>
      {crumbs}
      <PageHeader title={p.name}>
        {p.archivedAt && <Badge color="gray">Archived {formatDate(p.archivedAt)}</Badge>}
      </PageHeader>
      <Stack>
        <ProjectDetail project={p} />
        <ProjectAccess projectId={p.id} />
        <AccessRequests projectId={p.id} />
        <TeamAccess project={p} />
        <ProjectSessions projectId={p.id} />
        {admin && <ProjectModels projectId={p.id} />}
      </Stack>
    </>
  );
}
