import type { Schemas } from '../../../lib/api-client';

type Role = Schemas['AgentRoleRow'];
export type RoleBody = Schemas['PutAgentRoleRequest'];

/**
 * The full PUT body that keeps a role as it is, with `changes` applied. PUT replaces the whole
 * definition: a property left out takes its default, and leaving out `isDefault` would take the
 * flag off the organization's default role.
 */
export function roleBody(role: Role, changes: Partial<RoleBody> = {}): RoleBody {
  return {
    label: role.label,
    defaultModel: role.defaultModel,
    systemPrompt: role.systemPrompt,
    tools: role.tools,
    sortOrder: role.sortOrder,
    isDefault: role.isDefault,
    libraryFolderId: role.libraryFolderId,
    ...changes,
  };
}

/** The server's order: `sortOrder`, then label case-insensitively, then label, then `roleId`. */
export function compareRoles(
  a: Pick<Role, 'sortOrder' | 'label' | 'roleId'>,
  b: Pick<Role, 'sortOrder' | 'label' | 'roleId'>,
): number {
  if (a.sortOrder !== b.sortOrder) return a.sortOrder < b.sortOrder ? -1 : 1;
  const la = a.label.toLowerCase();
  const lb = b.label.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  if (a.label !== b.label) return a.label < b.label ? -1 : 1;
  return a.roleId < b.roleId ? -1 : a.roleId > b.roleId ? 1 : 0;
}

/**
 * The `sortOrder` changes that move `roles[index]` one place up (-1) or down (+1): swapping the
 * two values when that gives the wanted order, else numbering every role 10, 20, 30… in the
 * wanted order (only the roles whose value changes are returned).
 */
export function reorderPlan(
  roles: readonly Role[],
  index: number,
  direction: -1 | 1,
): { role: Role; sortOrder: number }[] {
  const other = index + direction;
  const role = roles[index];
  const neighbour = roles[other];
  if (!role || !neighbour) return [];
  const wanted = roles.map((r) => r.roleId);
  wanted[index] = neighbour.roleId;
  wanted[other] = role.roleId;
  if (role.sortOrder !== neighbour.sortOrder) {
    const swapped = roles.map((r) =>
      r === role ? { ...r, sortOrder: neighbour.sortOrder } : r === neighbour ? { ...r, sortOrder: role.sortOrder } : r,
    );
    const order = [...swapped].sort(compareRoles).map((r) => r.roleId);
    if (order.every((id, i) => id === wanted[i]))
      return [
        { role, sortOrder: neighbour.sortOrder },
        { role: neighbour, sortOrder: role.sortOrder },
      ];
  }
  const byId = new Map(roles.map((r) => [r.roleId, r]));
  return wanted
    .map((id, i) => ({ role: byId.get(id)!, sortOrder: (i + 1) * 10 }))
    .filter((c) => c.role.sortOrder !== c.sortOrder);
}
