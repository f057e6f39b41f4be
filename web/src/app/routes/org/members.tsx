import type { LoaderFunctionArgs } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { InviteButton } from '../../../features/invitations/components/invite-dialog';
import { InvitationsList } from '../../../features/invitations/components/invitations-list';
import { getMembersQueryOptions } from '../../../lib/queries/get-members';
import { AddMemberForm } from '../../../features/members/components/add-member-form';
import { MembersTable } from '../../../features/members/components/members-table';
import { requireOrgAdmin } from '../../../lib/authorization';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  requireOrgAdmin(await queryClient.ensureQueryData(getMeQueryOptions()), orgSlug);
  await queryClient.prefetchQuery(getMembersQueryOptions(orgSlug));
  return null;
}

export function Component() {
  return (
    <>
      <PageHeader title="Members">
        <InviteButton />
      </PageHeader>
      <AddMemberForm />
      <InvitationsList />
      <MembersTable />
    </>
  );
}
