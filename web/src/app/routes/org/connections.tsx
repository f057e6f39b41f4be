import { Stack } from '@mantine/core';
import type { LoaderFunctionArgs } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { getCapabilityConnectionsQueryOptions } from '../../../features/connections/api/get-capability-connections';
import { getChatApplicationQueryOptions } from '../../../features/connections/api/get-chat-application';
import { getProviderConnectionsQueryOptions } from '../../../features/connections/api/get-provider-connections';
import { CapabilityConnections } from '../../../features/connections/components/capability-connections';
import { ChatApplication } from '../../../features/connections/components/chat-application';
import { ProviderConnections } from '../../../features/connections/components/provider-connections';
import { requireOrgAdmin } from '../../../lib/authorization';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  requireOrgAdmin(await queryClient.ensureQueryData(getMeQueryOptions()), orgSlug);
  await Promise.all([
    queryClient.prefetchQuery(getProviderConnectionsQueryOptions(orgSlug)),
    queryClient.prefetchQuery(getChatApplicationQueryOptions(orgSlug)),
    queryClient.prefetchQuery(getCapabilityConnectionsQueryOptions(orgSlug)),
  ]);
  return null;
}

export function Component() {
  return (
    <>
      <PageHeader title="Connections" />
      <Stack>
        <ProviderConnections />
        <ChatApplication />
        <CapabilityConnections />
      </Stack>
    </>
  );
}
