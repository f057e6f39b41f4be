/**
 * What an API token may touch: one area of the API each, read or write (write implies read).
 * A token acts with its member's rights intersected with its scopes, so a scope never grants
 * what the member's role and grants do not.
 *
 * Beside the areas stands `runtime`: the agent runtime's own scope, for service-account tokens
 * only. It admits exactly the operations whose `x-authorization` says `runtime: true` (reporting
 * runs, asking admission), and admits them whatever the account's role: the org admin who gave
 * the scope to the account's token decided the runtime may do them.
 */
export const SCOPE_AREAS = [
  'org',
  'members',
  'teams',
  'projects',
  'usage',
  'connections',
  'capacity',
  'agents',
  'audit',
  'webhooks',
  'serviceAccounts',
  'policies',
] as const;
export type ScopeArea = (typeof SCOPE_AREAS)[number];
/** The scope an operation names in `x-authorization.scope`. */
export type AreaScope = `${ScopeArea}:${'read' | 'write'}`;
export const RUNTIME_SCOPE = 'runtime';
export type Scope = AreaScope | typeof RUNTIME_SCOPE;

export const AREA_SCOPES: readonly AreaScope[] = SCOPE_AREAS.flatMap(
  (area) => [`${area}:read`, `${area}:write`] as const,
);
export const SCOPES: readonly Scope[] = [...AREA_SCOPES, RUNTIME_SCOPE];

export const isScope = (value: unknown): value is Scope => SCOPES.includes(value as Scope);
export const isAreaScope = (value: unknown): value is AreaScope => AREA_SCOPES.includes(value as AreaScope);

/** Whether scopes granted to a token admit an operation that requires `required`. */
export function scopesAdmit(granted: readonly string[], required: AreaScope): boolean {
  if (granted.includes(required)) return true;
  const [area, level] = required.split(':');
  return level === 'read' && granted.includes(`${area}:write`);
}

/**
 * Whether a token is admitted as the runtime: an operation open to it (`runtime: true`), a token
 * of a service account, and the `runtime` scope among its scopes. Such a token passes both the
 * scope and the org-role check of that operation.
 */
export const runtimeAdmits = (
  token: { ownerType: 'member' | 'serviceAccount'; scopes: readonly string[] },
  operation: { runtime: boolean },
): boolean => operation.runtime && token.ownerType === 'serviceAccount' && token.scopes.includes(RUNTIME_SCOPE);
