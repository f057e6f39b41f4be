import { Stack, Text } from '@mantine/core';
import { QueryError } from '../../../components/query-error';
import { OPERATOR_HELP, UnmanagedTable } from '../../../components/unmanaged-projects';
import { useOrg } from '../../../lib/authorization';
import { useUnmanagedProjects } from '../api';

/** The explorer's filter "Nobody can manage": the projects without a manager and what to ask for. */
export function UnmanagedProjectsList() {
  const { org } = useOrg();
  const unmanaged = useUnmanagedProjects(org.slug);
  if (unmanaged.isError) return <QueryError error={unmanaged.error} title="Could not load the projects" />;
  if (unmanaged.isPending) return <Text size="sm">Loading…</Text>;
  const projects = unmanaged.data.projects.map((p) => ({
    id: p.id,
    name: p.name,
    forceReleaseCommand: p.forceReleaseCommand ?? '',
  }));
  if (projects.length === 0) return <Text size="sm">Every project has someone who can manage it.</Text>;
  return (
    <Stack>
      <Text size="sm">{OPERATOR_HELP}</Text>
      <UnmanagedTable projects={projects} label="Projects nobody can manage" />
    </Stack>
  );
}
