/**
 * Where a person without a session is sent from `pathname + search`: the sign-in page, which
 * brings them back there afterwards — the organization's own sign-in page (its providers first)
 * when the page belongs to an organization.
 */
export function signInPath(pathname: string, search = ''): string {
  const orgSlug = /^\/o\/([a-z0-9][a-z0-9-]{0,62})(\/|$)/.exec(pathname)?.[1];
  const org = orgSlug ? `org=${orgSlug}&` : '';
  return `/signin?${org}returnTo=${encodeURIComponent(pathname + search)}`;
}
