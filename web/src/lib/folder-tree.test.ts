import { describe, expect, it } from 'vitest';
import { buildLibrary, LIBRARY_ROOT, type LibraryLeaf } from '../features/agents/components/library-tree';
import { buildProjectTree, type Project, PROJECTS_TOP_LEVEL } from './project-tree';
import type { Schemas } from './api-client';
import {
  entryParent,
  folderOptions,
  folderPath,
  matchingRows,
  subtreeIds,
  TOP_LEVEL,
  type TreeRow,
  visibleRows,
} from './folder-tree';

// One tree model serves the Projects explorer (projects as leaves) and the agent library (roles,
// then skills, as leaves); each case below runs on the shape it concerns, through its real adapter.

const explorerFolder = (id: string, parentId: string | null, name = id) => ({
  id,
  name,
  parentId,
  sortKey: '0000001000',
  projectCount: 0,
  childFolderCount: 0,
});
const project = (id: string, folderId: string | null): Project => ({
  id,
  name: `P ${id}`,
  folderId,
  createdAt: '2026-01-01T00:00:00Z',
  binding: null,
});
const explorerData = {
  folders: [
    explorerFolder('eng', null, 'Engineering'),
    explorerFolder('be', 'eng', 'Backend'),
    explorerFolder('ops', null, 'Ops'),
  ],
  projects: [project('billing', 'be'), project('site', null), project('runbook', 'ops')],
};

const libraryFolder = (id: string, parentId: string | null, name = id) => ({
  id,
  name,
  parentId,
  sortKey: '0000001000',
  roleCount: 0,
  skillCount: 0,
});
const role = (roleId: string, libraryFolderId: string | null): Schemas['AgentRoleRow'] => ({
  id: `id-${roleId}`,
  roleId,
  label: roleId,
  defaultModel: null,
  systemPrompt: null,
  tools: null,
  sortOrder: 0,
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

const projectIds = (rows: TreeRow<{ id: string }, Project>[]) =>
  rows.map((r) => [r.kind === 'folder' ? r.folder.id : r.leaf.id, r.depth]);
const libraryIds = (rows: TreeRow<{ id: string }, LibraryLeaf>[]) =>
  rows.map((r) =>
    r.kind === 'folder' ? r.folder.id : r.leaf.kind === 'role' ? r.leaf.role.roleId : r.leaf.skill.name,
  );

describe('the folder tree, with projects as leaves', () => {
  const tree = buildProjectTree(explorerData);

  it('shows top-level folders then top-level projects while everything is collapsed', () => {
    expect(projectIds(visibleRows(tree, new Set()))).toEqual([
      ['eng', 0],
      ['ops', 0],
      ['site', 0],
    ]);
  });

  it('shows an expanded folder’s subfolders and projects beneath it, one level deeper', () => {
    expect(projectIds(visibleRows(tree, new Set(['eng', 'be'])))).toEqual([
      ['eng', 0],
      ['be', 1],
      ['billing', 2],
      ['ops', 0],
      ['site', 0],
    ]);
  });

  it('names a folder by its path', () => {
    expect(folderPath(tree, 'be')).toBe('Engineering / Backend');
    expect(folderPath(tree, null)).toBe('/');
  });

  it('knows a folder’s subtree (where it cannot be moved)', () => {
    expect([...subtreeIds(tree, 'eng')].sort()).toEqual(['be', 'eng']);
    expect([...subtreeIds(tree, 'ops')]).toEqual(['ops']);
  });

  it('searches folders, then projects, anywhere in the tree, in any case', () => {
    expect(matchingRows(tree, 'bill').map((r) => r.kind)).toEqual(['leaf']);
    expect(projectIds(matchingRows(tree, 'END'))).toEqual([['be', 0]]);
    expect(projectIds(matchingRows(tree, 'p '))).toEqual([
      ['billing', 0],
      ['site', 0],
      ['runbook', 0],
    ]);
  });

  it('offers the top level, then every folder by path, as destinations', () => {
    expect(folderOptions(tree, PROJECTS_TOP_LEVEL, subtreeIds(tree, 'eng'))).toEqual([
      { value: TOP_LEVEL, label: '/ (top level)' },
      { value: 'ops', label: 'Ops' },
    ]);
  });
});

describe('the folder tree, with roles and skills as leaves', () => {
  const lib = buildLibrary(
    [libraryFolder('sup', null, 'Support'), libraryFolder('bill', 'sup', 'Billing'), libraryFolder('ops', null, 'Ops')],
    [role('lead', null), role('biller', 'bill'), role('lost', 'archived-folder')],
    [skill('pdf', 'sup'), skill('ocr', null)],
  );

  it('shows folders, then roles, then skills, opening only expanded folders', () => {
    expect(libraryIds(visibleRows(lib, new Set()))).toEqual(['sup', 'ops', 'lead', 'lost', 'ocr']);
    expect(libraryIds(visibleRows(lib, new Set(['sup', 'bill'])))).toEqual([
      'sup',
      'bill',
      'biller',
      'pdf',
      'ops',
      'lead',
      'lost',
      'ocr',
    ]);
  });

  it('shows what names a folder it does not hold at the top level, rather than nowhere', () => {
    const lost = visibleRows(lib, new Set()).find(
      (r) => r.kind === 'leaf' && r.leaf.kind === 'role' && r.leaf.role.roleId === 'lost',
    )!;
    expect(entryParent(lib, lost)).toBeNull();
    const orphan = buildLibrary([libraryFolder('child', 'archived-parent', 'Child')], [], []);
    expect(libraryIds(visibleRows(orphan, new Set()))).toEqual(['child']);
  });

  it('names paths and refuses moves under a folder itself', () => {
    expect(folderPath(lib, 'bill')).toBe('Support / Billing');
    expect(folderPath(lib, null)).toBe('/');
    expect([...subtreeIds(lib, 'sup')].sort()).toEqual(['bill', 'sup']);
    expect(folderOptions(lib, LIBRARY_ROOT, subtreeIds(lib, 'sup')).map((o) => o.label)).toEqual([
      '/ (library root)',
      'Ops',
    ]);
  });
});
