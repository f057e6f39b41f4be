import type { LoaderFunctionArgs } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getTokensQueryOptions } from '../../../features/tokens/api/tokens';
import { CreateTokenForm } from '../../../features/tokens/components/create-token-form';
import { TokensTable } from '../../../features/tokens/components/tokens-table';
import { queryClient } from '../../../lib/query-client';

/** Any member manages their own tokens here; an org admin also sees and revokes everyone's. */
export async function loader({ params }: LoaderFunctionArgs) {
  await queryClient.prefetchQuery(getTokensQueryOptions(params.orgSlug!));
  return null;
}

export function Component() {
  return (
    <>
      <PageHeader title="API tokens" />
      <CreateTokenForm />
      <TokensTable />
    </>
  );
}
