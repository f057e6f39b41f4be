/**
 * What an API token may touch: one area of the API each, read or write (write implies read).
 * A token acts with its member's rights intersected with its scopes, so a scope never grants
 * what the member's role and grants do not.
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
export type Scope = `${ScopeArea}:${'read' | 'write'}`;

export const SCOPES: readonly Scope[] = SCOPE_AREAS.flatMap((area) => [`${area}:read`, `${area}:write`] as const);

export const isScope = (value: unknown): value is Scope => SCOPES.includes(value as Scope);

/** Whether scopes granted to a token admit an operation that requires `required`. */
export function scopesAdmit(granted: readonly string[], required: Scope): boolean {
  if (granted.includes(required)) return true;
  const [area, level] = required.split(':');
  return level === 'read' && granted.includes(`${area}:write`);
}
