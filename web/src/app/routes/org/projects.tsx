import { SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { LoaderFunctionArgs } from 'react-router';
import { UnmanagedProjectsList } from '../../../features/lifecycle/components/unmanaged-projects';
import { PageHeader } from '../../../components/page-header';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { getExplorerQueryOptions } from '../../../lib/queries/get-explorer';
import { Explorer } from '../../../features/projects/components/explorer';
import { requireOrgAdmin } from '../../../lib/authorization';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  requireOrgAdmin(await queryClient.ensureQueryData(getMeQueryOptions()), orgSlug);
  await queryClient.prefetchQuery(getExplorerQueryOptions(orgSlug));
  return null;
}

export function Component() {
  const [shown, setShown] = useState<'all' | 'unmanaged'>('all');
  return (
    <>
      <PageHeader title="Projects" />
      <Stack gap={4} mb="md">
        <Text size="sm" fw={500} id="project-filter-label">
          Show
        </Text>
        <SegmentedControl
          aria-labelledby="project-filter-label"
          value={shown}
          onChange={(v) => setShown(v as 'all' | 'unmanaged')}
          data={[
            { value: 'all', label: 'All projects' },
            { value: 'unmanaged', label: 'Nobody can manage' },
          ]}
        />
      </Stack>
      {shown === 'all' ? <Explorer /> : <UnmanagedProjectsList />}
    </>
  );
}
