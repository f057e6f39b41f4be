import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../../lib/api-client';
import { reorderPlan, roleBody } from './role-order';

const role = (roleId: string, libraryFolderId: string | null, sortOrder = 0): Schemas['AgentRoleRow'] => ({
  id: `id-${roleId}`,
  roleId,
  label: roleId,
  defaultModel: null,
  systemPrompt: null,
  tools: null,
  sortOrder,
  isDefault: false,
  disabledAt: null,
  libraryFolderId,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  skillNames: [],
});
describe('role order', () => {
  it('keeps every property in a PUT body, the default flag included', () => {
    expect(roleBody({ ...role('lead', 'f'), isDefault: true }, { sortOrder: 5 })).toEqual({
      label: 'lead',
      defaultModel: null,
      systemPrompt: null,
      tools: null,
      sortOrder: 5,
      isDefault: true,
      libraryFolderId: 'f',
    });
  });

  it('swaps two distinct sort orders, else numbers the roles in the wanted order', () => {
    const distinct = [role('a', null, 1), role('b', null, 2), role('c', null, 3)];
    expect(reorderPlan(distinct, 2, -1).map((c) => [c.role.roleId, c.sortOrder])).toEqual([
      ['c', 2],
      ['b', 3],
    ]);
    const ties = [role('a', null, 0), role('b', null, 0), role('c', null, 0)];
    expect(reorderPlan(ties, 0, 1).map((c) => [c.role.roleId, c.sortOrder])).toEqual([
      ['b', 10],
      ['a', 20],
      ['c', 30],
    ]);
    expect(reorderPlan(ties, 0, -1)).toEqual([]);
  });
});
