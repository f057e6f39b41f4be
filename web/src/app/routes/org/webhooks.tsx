import type { LoaderFunctionArgs } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { getWebhooksQueryOptions } from '../../../features/webhooks/api/webhooks';
import { CreateWebhookForm } from '../../../features/webhooks/components/create-webhook-form';
import { WebhooksTable } from '../../../features/webhooks/components/webhooks-table';
import { requireOrgAdmin } from '../../../lib/authorization';
import { queryClient } from '../../../lib/query-client';

/** Org admins add the endpoints told of changes, and follow each one's deliveries. */
export async function loader({ params }: LoaderFunctionArgs) {
  requireOrgAdmin(await queryClient.ensureQueryData(getMeQueryOptions()), params.orgSlug!);
  await queryClient.prefetchQuery(getWebhooksQueryOptions(params.orgSlug!));
  return null;
}

export function Component() {
  return (
    <>
      <PageHeader title="Webhooks" />
      <CreateWebhookForm />
      <WebhooksTable />
    </>
  );
}
