import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../../lib/api-client';
import { buildLibrary, folderOptions, folderPath, subtreeIds, visibleRows } from './library-tree';
import { reorderPlan, roleBody } from './role-order';

const folder = (id: string, parentId: string | null, name = id) => ({
  id,
  name,
  parentId,
  sortKey: '0000001000',
  roleCount: 0,
  skillCount: 0,
});
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
const skill = (name: string, libraryFolderId: string | null): Schemas['AgentSkillRow'] => ({
  id: `id-${name}`,
  name,
  version: '1',
  description: null,
  contentDigest: '0'.repeat(64),
  disabledAt: null,
  libraryFolderId,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  boundRoleIds: [],
});

describe('the agent library tree', () => {
  const lib = buildLibrary(
    [folder('sup', null, 'Support'), folder('bill', 'sup', 'Billing'), folder('ops', null, 'Ops')],
    [role('lead', null), role('biller', 'bill'), role('lost', 'archived-folder')],
    [skill('pdf', 'sup')],
  );
  const ids = (rows: ReturnType<typeof visibleRows>) =>
    rows.map((r) => (r.kind === 'folder' ? r.folder.id : r.kind === 'role' ? r.role.roleId : r.skill.name));

  it('shows folders, then roles, then skills, opening only expanded folders', () => {
    expect(ids(visibleRows(lib, new Set()))).toEqual(['sup', 'ops', 'lead', 'lost']);
    expect(ids(visibleRows(lib, new Set(['sup', 'bill'])))).toEqual([
      'sup',
      'bill',
      'biller',
      'pdf',
      'ops',
      'lead',
      'lost',
    ]);
  });

  it('names paths and refuses moves under a folder itself', () => {
    expect(folderPath(lib, 'bill')).toBe('Support / Billing');
    expect(folderPath(lib, null)).toBe('/');
    expect([...subtreeIds(lib, 'sup')].sort()).toEqual(['bill', 'sup']);
    expect(folderOptions(lib, subtreeIds(lib, 'sup')).map((o) => o.label)).toEqual(['/ (library root)', 'Ops']);
  });
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
