import { Anchor, Breadcrumbs, Paper, Title } from '@mantine/core';
import { Link, type LoaderFunctionArgs, useParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { PageLoader } from '../../../components/page-loader';
import { QueryError } from '../../../components/query-error';
import {
  getServiceAccountQueryOptions,
  useServiceAccount,
} from '../../../features/service-accounts/api/service-accounts';
import { ServiceAccountDetail } from '../../../features/service-accounts/components/service-account-detail';
import { getTokensQueryOptions } from '../../../features/tokens/api/tokens';
import { CreateTokenForm } from '../../../features/tokens/components/create-token-form';
import { TokensTable } from '../../../features/tokens/components/tokens-table';
import { requireOrgAdmin, useOrg } from '../../../lib/authorization';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { getTeamsQueryOptions } from '../../../lib/queries/get-teams';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  const serviceAccountId = params.serviceAccountId!;
  requireOrgAdmin(await queryClient.ensureQueryData(getMeQueryOptions()), orgSlug);
  await Promise.all([
    queryClient.prefetchQuery(getServiceAccountQueryOptions(orgSlug, serviceAccountId)),
    queryClient.prefetchQuery(getTokensQueryOptions(orgSlug, serviceAccountId)),
  ]);
  void queryClient.prefetchQuery(getTeamsQueryOptions(orgSlug));
  return null;
}

/** One service account: its details, state and teams, then its tokens (made, rotated, revoked here). */
export function Component() {
  const { org } = useOrg();
  const serviceAccountId = useParams().serviceAccountId!;
  const account = useServiceAccount(org.slug, serviceAccountId);
  if (account.isPending) return <PageLoader />;
  if (account.isError) return <QueryError error={account.error} title="Could not load the service account" />;
  return (
    <>
      <Breadcrumbs mb="sm">
        <Anchor component={Link} to={`/o/${encodeURIComponent(org.slug)}/service-accounts`}>
          Service accounts
        </Anchor>
        <span>{account.data.name}</span>
      </Breadcrumbs>
      <PageHeader title={account.data.name} />
      <ServiceAccountDetail serviceAccountId={serviceAccountId} />
      <CreateTokenForm serviceAccount={{ id: account.data.id, name: account.data.name }} />
      <Paper withBorder p="md" mb="md" component="section" aria-labelledby="sa-tokens-title">
        <Title order={2} size="h4" id="sa-tokens-title" mb="sm">
          Tokens
        </Title>
        <TokensTable serviceAccountId={serviceAccountId} />
      </Paper>
    </>
  );
}
