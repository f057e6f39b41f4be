/** Permission grant roles on a project, weakest first. */
export const GRANT_ROLES = ['READ', 'EDIT', 'MANAGE'] as const;
export type GrantRole = (typeof GRANT_ROLES)[number];

const rank = (role: GrantRole): number => GRANT_ROLES.indexOf(role);

/** The strongest of several grants, or null when there are none. */
export function strongestGrant(roles: Iterable<GrantRole>): GrantRole | null {
  let best: GrantRole | null = null;
  for (const role of roles) if (best === null || rank(role) > rank(best)) best = role;
  return best;
}

export const grantAtLeast = (held: GrantRole | null, needed: GrantRole): boolean =>
  held !== null && rank(held) >= rank(needed);
