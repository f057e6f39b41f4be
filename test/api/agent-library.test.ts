import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, expectError, okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';

/** The agent library: an organization-scoped folder tree grouping roles and skills. */

let hub: TestHub;
let counter = 0;
const freshOrg = () => seedOrg(hub, `lib-${++counter}`);

beforeAll(async () => {
  hub = await TestHub.start();
});
afterAll(() => hub.stop());

const SKILL_FILES = (name: string) => [
  { path: 'SKILL.md', content: `---\nname: ${name}\ndescription: ${name}\n---\nDo it.\n` },
];

async function folder(org: OrgFixture, name: string, parentId?: string, sortKey?: string): Promise<string> {
  const body = { name, ...(parentId === undefined ? {} : { parentId }), ...(sortKey === undefined ? {} : { sortKey }) };
  return (await okBody(org.call('owner', 'createAgentLibraryFolder', { body }), 201)).id;
}

const library = async (org: OrgFixture) => (await okBody(org.call('admin', 'getAgentLibrary'))).folders;
const installSkill = (org: OrgFixture, name: string) =>
  okBody(org.call('owner', 'installAgentSkill', { path: { name }, body: { version: '1', files: SKILL_FILES(name) } }));
const putRole = (
  org: OrgFixture,
  roleId: string,
  body: { label: string; libraryFolderId?: string | null; isDefault?: boolean },
) => org.call('owner', 'putAgentRole', { path: { roleId }, body });
const roleRow = async (org: OrgFixture, roleId: string) =>
  (await okBody(org.call('owner', 'listAgentRoles'))).roles.find((r) => r.roleId === roleId);
const skillRow = async (org: OrgFixture, name: string) =>
  (await okBody(org.call('owner', 'listAgentSkills'))).skills.find((s) => s.name === name);

describe('the library folder tree', () => {
  it(
    'creates folders at the root and below, last among their siblings, ' + 'and lists them in tree order with counts',
    async () => {
      const org = await freshOrg();
      expect(await library(org)).toEqual([]);
      const prompts = await folder(org, 'Prompts');
      const reviewers = await folder(org, 'Reviewers', prompts);
      const archive = await folder(org, 'archive');
      const first = await folder(org, 'First', undefined, '0000000001');
      const rows = await library(org);
      expect(rows.map((f) => f.name)).toEqual(['First', 'Prompts', 'Reviewers', 'archive']);
      expect(rows.find((f) => f.id === reviewers)).toEqual({
        id: reviewers,
        name: 'Reviewers',
        parentId: prompts,
        sortKey: '0000001000',
        roleCount: 0,
        skillCount: 0,
      });
      expect(rows.find((f) => f.id === archive)?.sortKey).toBe('0000002000');
      expect(rows.find((f) => f.id === first)?.parentId).toBeNull();
      // The project explorer does not show library folders, nor the library project folders.
      await okBody(org.call('owner', 'createFolder', { body: { name: 'Projects' } }), 201);
      expect((await okBody(org.call('owner', 'getExplorer'))).folders.map((f) => f.name)).toEqual(['Projects']);
      expect((await library(org)).map((f) => f.name)).not.toContain('Projects');
    },
  );

  it('renames, reorders and moves a folder; refuses a cycle with 409 folder_cycle', async () => {
    const org = await freshOrg();
    const a = await folder(org, 'A');
    const b = await folder(org, 'B', a);
    const c = await folder(org, 'C', b);
    const moved = await okBody(
      org.call('owner', 'updateAgentLibraryFolder', {
        path: { folderId: c },
        body: { name: 'C2', parentId: null, sortKey: 'z' },
      }),
    );
    expect(moved).toEqual({ id: c, name: 'C2', parentId: null, sortKey: 'z' });
    await okBody(org.call('owner', 'updateAgentLibraryFolder', { path: { folderId: c }, body: { parentId: b } }));
    for (const target of [a, b, c]) {
      const res = await org.call('owner', 'updateAgentLibraryFolder', {
        path: { folderId: a },
        body: { parentId: target === a ? a : target },
      });
      expectError(res, 409, 'folder_cycle');
    }
    expect((await library(org)).find((f) => f.id === a)?.parentId).toBeNull();
  });

  it(
    'keeps the two trees apart: a project folder is no library parent, ' + 'and a library folder no project folder',
    async () => {
      const org = await freshOrg();
      const projectFolder = (await okBody(org.call('owner', 'createFolder', { body: { name: 'P' } }), 201)).id;
      const libraryFolder = await folder(org, 'L');
      expectError(
        await org.call('owner', 'createAgentLibraryFolder', { body: { name: 'x', parentId: projectFolder } }),
        404,
        'folder_not_found',
      );
      expectError(
        await org.call('owner', 'updateAgentLibraryFolder', { path: { folderId: projectFolder }, body: { name: 'x' } }),
        404,
        'folder_not_found',
      );
      expectError(
        await org.call('owner', 'archiveAgentLibraryFolder', { path: { folderId: projectFolder } }),
        404,
        'folder_not_found',
      );
      expectError(
        await org.call('owner', 'createFolder', { body: { name: 'x', parentId: libraryFolder } }),
        404,
        'folder_not_found',
      );
      expectError(
        await org.call('owner', 'createProject', { body: { name: 'x', folderId: libraryFolder } }),
        404,
        'folder_not_found',
      );
      expectError(await putRole(org, 'r', { label: 'R', libraryFolderId: projectFolder }), 404, 'folder_not_found');
    },
  );

  it(
    'archives only an empty folder: an active child folder, ' + 'a role or a skill (disabled ones too) keeps it',
    async () => {
      const org = await freshOrg();
      const parent = await folder(org, 'Parent');
      const child = await folder(org, 'Child', parent);
      const archive = (folderId: string) => org.call('owner', 'archiveAgentLibraryFolder', { path: { folderId } });
      expectError(await archive(parent), 409, 'folder_not_empty');

      await okBody(putRole(org, 'kept', { label: 'Kept', libraryFolderId: child }));
      await okBody(org.call('owner', 'updateAgentRole', { path: { roleId: 'kept' }, body: { disabled: true } }));
      const refused = await archive(child);
      expectError(refused, 409, 'folder_not_empty');
      expect(errorBody(refused).error.message).toContain('roles or skills');
      await okBody(putRole(org, 'kept', { label: 'Kept', libraryFolderId: null }));

      await installSkill(org, 'lint');
      await okBody(
        org.call('owner', 'updateAgentSkill', {
          path: { name: 'lint' },
          body: { libraryFolderId: child, disabled: true },
        }),
      );
      expectError(await archive(child), 409, 'folder_not_empty');
      await okBody(org.call('owner', 'updateAgentSkill', { path: { name: 'lint' }, body: { libraryFolderId: null } }));

      expect(await okBody(archive(child))).toEqual({ archived: true, folderId: child });
      expect(await okBody(archive(parent))).toEqual({ archived: true, folderId: parent });
      expect(await library(org)).toEqual([]);
      expectError(await archive(parent), 404, 'folder_not_found');
      expectError(await putRole(org, 'kept', { label: 'Kept', libraryFolderId: parent }), 404, 'folder_not_found');
    },
  );

  it('counts library folders and project folders together toward folderCount', async () => {
    const org = await freshOrg();
    await okBody(org.call('owner', 'updateCapacityPolicy', { body: { limits: { folderCount: 2 } } }));
    await okBody(org.call('owner', 'createFolder', { body: { name: 'P' } }), 201);
    const lib = await folder(org, 'L');
    expectError(
      await org.call('owner', 'createAgentLibraryFolder', { body: { name: 'L2' } }),
      409,
      'capacity_exceeded',
    );
    expectError(await org.call('owner', 'createFolder', { body: { name: 'P2' } }), 409, 'capacity_exceeded');
    // Archived folders do not count.
    await okBody(org.call('owner', 'archiveAgentLibraryFolder', { path: { folderId: lib } }));
    expect((await org.call('owner', 'createFolder', { body: { name: 'P2' } })).status).toBe(201);
  });
});

describe('libraryFolderId of roles and skills', () => {
  it(
    'places a role with PUT, keeps the place when the PUT leaves it out, ' + 'and moves it to the root with null',
    async () => {
      const org = await freshOrg();
      const shelf = await folder(org, 'Shelf');
      const created = await okBody(putRole(org, 'coder', { label: 'Coder', libraryFolderId: shelf }));
      expect(created.libraryFolderId).toBe(shelf);
      expect((await okBody(putRole(org, 'coder', { label: 'Coder 2' }))).libraryFolderId).toBe(shelf);
      expect((await okBody(putRole(org, 'plain', { label: 'Plain' }))).libraryFolderId).toBeNull();
      expect((await library(org)).find((f) => f.id === shelf)).toMatchObject({ roleCount: 1, skillCount: 0 });
      expect(
        (await okBody(putRole(org, 'coder', { label: 'Coder', libraryFolderId: null }))).libraryFolderId,
      ).toBeNull();
      expect((await roleRow(org, 'coder'))?.libraryFolderId).toBeNull();
    },
  );

  it('moves a skill with PATCH (answering updated), and a new install keeps its place', async () => {
    const org = await freshOrg();
    const shelf = await folder(org, 'Shelf');
    await installSkill(org, 'review');
    expect((await skillRow(org, 'review'))?.libraryFolderId).toBeNull();
    expect(
      await okBody(
        org.call('owner', 'updateAgentSkill', { path: { name: 'review' }, body: { libraryFolderId: shelf } }),
      ),
    ).toEqual({ updated: true });
    expect((await skillRow(org, 'review'))?.libraryFolderId).toBe(shelf);
    await okBody(
      org.call('owner', 'installAgentSkill', {
        path: { name: 'review' },
        body: { version: '2', files: [...SKILL_FILES('review'), { path: 'notes.md', content: 'v2' }] },
      }),
    );
    expect((await skillRow(org, 'review'))?.libraryFolderId).toBe(shelf);
    expect((await library(org)).find((f) => f.id === shelf)).toMatchObject({ roleCount: 0, skillCount: 1 });
  });

  it('refuses an unknown, archived or foreign folder with 404 folder_not_found, changing nothing', async () => {
    const [org, other] = [await freshOrg(), await freshOrg()];
    const foreign = await folder(other, 'Theirs');
    const gone = await folder(org, 'Gone');
    await okBody(org.call('owner', 'archiveAgentLibraryFolder', { path: { folderId: gone } }));
    await okBody(putRole(org, 'r', { label: 'R' }));
    await installSkill(org, 's');
    for (const folderId of [foreign, gone, 'no-such-folder']) {
      expectError(await putRole(org, 'r', { label: 'Changed', libraryFolderId: folderId }), 404, 'folder_not_found');
      expectError(
        await org.call('owner', 'updateAgentSkill', {
          path: { name: 's' },
          body: { libraryFolderId: folderId, description: 'changed' },
        }),
        404,
        'folder_not_found',
      );
    }
    expect(await roleRow(org, 'r')).toMatchObject({ label: 'R', libraryFolderId: null });
    expect(await skillRow(org, 's')).toMatchObject({ description: 's', libraryFolderId: null });
  });
});
