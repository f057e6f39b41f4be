import { type LoaderFunctionArgs, redirect } from 'react-router';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { findOrg, homePath } from '../../../lib/authorization';
import { queryClient } from '../../../lib/query-client';

/** `/o/{slug}` itself: admins start at Members, a MEMBER at My projects. */
export async function loader({ params }: LoaderFunctionArgs) {
  const me = await queryClient.ensureQueryData(getMeQueryOptions());
  const org = findOrg(me, params.orgSlug);
  if (org) throw redirect(homePath(org));
  return null;
}

export function Component() {
  return null;
}
