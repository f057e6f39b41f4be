/** `/invite/{token}`: an invitation link. Signed out → sign in and come back; signed in → look and accept. */
import { type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { getMeQueryOptions } from '../../lib/queries/get-me';
import { InvitationAcceptance, InvitationSignIn } from '../../features/invitations/components/invitation-page';
import { queryClient } from '../../lib/query-client';

export async function loader({ params }: LoaderFunctionArgs) {
  const token = params.token!;
  const me = await queryClient.fetchQuery(getMeQueryOptions());
  return { token, path: `/invite/${encodeURIComponent(token)}`, me };
}

export function Component() {
  const { token, path, me } = useLoaderData<typeof loader>();
  return me ? <InvitationAcceptance token={token} path={path} me={me} /> : <InvitationSignIn path={path} />;
}
