/** The one place that knows what each organization role may do in the app. */
import { createContext, type ReactNode, useContext } from 'react';
import { redirect } from 'react-router';
import type { Schemas } from './api-client';

export type OrgRole = Schemas['OrgRole'];
export type OrgMembership = Schemas['OrgMembership'];
export type Me = Schemas['MeResponse'];

export const isOrgAdmin = (role: OrgRole | undefined) => role === 'OWNER' || role === 'ADMIN';
/** Granting, removing or revoking the OWNER role is an OWNER's act (`owner_required`). */
export const canHandleOwners = (role: OrgRole | undefined) => role === 'OWNER';
/** The roles the caller may hand out. */
export const assignableRoles = (role: OrgRole | undefined): OrgRole[] =>
  canHandleOwners(role) ? ['OWNER', 'ADMIN', 'MEMBER'] : ['ADMIN', 'MEMBER'];

/** Where a person lands in an organization. */
export const homePath = (org: Pick<OrgMembership, 'slug' | 'role'>) =>
  `/o/${encodeURIComponent(org.slug)}/${isOrgAdmin(org.role) ? 'members' : 'my-projects'}`;

export function findOrg(me: Me | null | undefined, slug: string | undefined): OrgMembership | undefined {
  return me?.organizations.find((o) => o.slug === slug);
}

/** For loaders of admin-only screens: a MEMBER is sent to My projects with a notice instead. */
export function requireOrgAdmin(me: Me | null | undefined, slug: string): void {
  const org = findOrg(me, slug);
  if (org && !isOrgAdmin(org.role)) throw redirect(`/o/${encodeURIComponent(slug)}/my-projects?notice=admin-only`);
}

type OrgContextValue = { me: Me; org: OrgMembership };
const OrgContext = createContext<OrgContextValue | null>(null);
export const OrgProvider = OrgContext.Provider;

/** The signed-in user and the organization of the current `/o/{slug}` route. */
export function useOrg(): OrgContextValue {
  const value = useContext(OrgContext);
  if (!value) throw new Error('useOrg outside an organization route');
  return value;
}

/** Renders `children` only for the roles allowed; otherwise `fallback` (say why, never hide silently). */
export function Authorization({
  allow,
  children,
  fallback = null,
}: {
  allow: OrgRole[];
  children: ReactNode;
  fallback?: ReactNode;
}) {
  const { org } = useOrg();
  return <>{allow.includes(org.role) ? children : fallback}</>;
}
