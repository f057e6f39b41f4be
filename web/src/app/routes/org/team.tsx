import { Alert, Anchor, Breadcrumbs, Group, Stack, Text } from '@mantine/core';
import { Link, type LoaderFunctionArgs, useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { PageLoader } from '../../../components/page-loader';
import { QueryError } from '../../../components/query-error';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { getMembersQueryOptions } from '../../../lib/queries/get-members';
import { getTeamMembersQueryOptions } from '../../../lib/queries/get-team-members';
import { getTeamsQueryOptions, useTeams } from '../../../lib/queries/get-teams';
import { ArchiveTeamButton } from '../../../features/teams/components/archive-team-button';
import { EditTeamButton } from '../../../features/teams/components/edit-team-button';
import { TeamMembers } from '../../../features/teams/components/team-members';
import { TeamProjects } from '../../../features/teams/components/team-projects';
import { requireOrgAdmin, useOrg } from '../../../lib/authorization';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  requireOrgAdmin(await queryClient.ensureQueryData(getMeQueryOptions()), orgSlug);
  await Promise.all([
    queryClient.prefetchQuery(getTeamsQueryOptions(orgSlug)),
    queryClient.prefetchQuery(getTeamMembersQueryOptions(orgSlug, params.teamId!)),
  ]);
  void queryClient.prefetchQuery(getMembersQueryOptions(orgSlug));
  return null;
}

export function Component() {
  const { org } = useOrg();
  const { teamId } = useParams();
  const navigate = useNavigate();
  const teams = useTeams(org.slug);
  const base = `/o/${encodeURIComponent(org.slug)}`;
  if (teams.isPending) return <PageLoader />;
  if (teams.isError) return <QueryError error={teams.error} />;
  const team = teams.data.teams.find((t) => t.id === teamId);
  const crumbs = (
    <Breadcrumbs mb="sm">
      <Anchor component={Link} to={`${base}/teams`}>
        Teams
      </Anchor>
      <Text>{team?.name ?? 'Unknown team'}</Text>
    </Breadcrumbs>
  );
  if (!team) {
    return (
      <>
        {crumbs}
        <PageHeader title="Team not found" />
        <Alert color="yellow">This team does not exist or was archived.</Alert>
      </>
    );
  }
  return (
    <>
      {crumbs}
      <PageHeader title={team.name}>
        <Group gap="xs">
          <EditTeamButton team={team} />
          <ArchiveTeamButton team={team} onArchived={() => navigate(`${base}/teams`)} />
        </Group>
      </PageHeader>
      <Text c="dimmed" mb="md">
        {team.slug}
        {team.description ? ` · ${team.description}` : ''}
      </Text>
      <Stack>
        <TeamProjects team={team} />
        <TeamMembers team={team} />
      </Stack>
    </>
  );
}
