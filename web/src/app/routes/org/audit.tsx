import type { LoaderFunctionArgs } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { AuditLog } from '../../../features/audit/components/audit-log';
import { requireOrgAdmin } from '../../../lib/authorization';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params }: LoaderFunctionArgs) {
  requireOrgAdmin(await queryClient.ensureQueryData(getMeQueryOptions()), params.orgSlug!);
  return null;
}

export function Component() {
  return (
    <>
      <PageHeader title="Audit log" />
      <AuditLog />
    </>
  );
}
