import { describe, expect, it } from 'vitest';
import { buildTree, folderPath, matchingRows, subtreeIds, visibleRows } from './tree-model';

const folder = (id: string, parentId: string | null, name = id) => ({
  id,
  name,
  parentId,
  sortKey: '0000001000',
  projectCount: 0,
  childFolderCount: 0,
});
const project = (id: string, folderId: string | null) => ({
  id,
  name: `P ${id}`,
  folderId,
  createdAt: '2026-01-01T00:00:00Z',
  binding: null,
});

const data = {
  folders: [folder('eng', null, 'Engineering'), folder('be', 'eng', 'Backend'), folder('ops', null, 'Ops')],
  projects: [project('billing', 'be'), project('site', null), project('runbook', 'ops')],
};

describe('the explorer tree', () => {
  const tree = buildTree(data);

  it('shows top-level folders then top-level projects while everything is collapsed', () => {
    expect(visibleRows(tree, new Set()).map((r) => (r.kind === 'folder' ? r.folder.id : r.project.id))).toEqual([
      'eng',
      'ops',
      'site',
    ]);
  });

  it('shows an expanded folder’s subfolders and projects beneath it, one level deeper', () => {
    const rows = visibleRows(tree, new Set(['eng', 'be']));
    expect(rows.map((r) => [r.kind === 'folder' ? r.folder.id : r.project.id, r.depth])).toEqual([
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

  it('searches folders and projects anywhere in the tree', () => {
    expect(matchingRows(data, 'bill').map((r) => r.kind)).toEqual(['project']);
    expect(matchingRows(data, 'END').map((r) => (r.kind === 'folder' ? r.folder.name : ''))).toEqual(['Backend']);
  });
});
