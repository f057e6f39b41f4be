import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, expectOk, okBody } from '../support/assertions.js';
import type { OrgCallArgs, OrgOperationId, RequestBody } from '../support/api-client.js';
import { TestHub } from '../support/test-hub.js';
import { seedActors, type ActorName } from '../support/actors.js';

let hub: TestHub;
let cookies: Record<ActorName, string | undefined>;

beforeAll(async () => {
  hub = await TestHub.start();
  cookies = await seedActors(hub);
});
afterAll(() => hub.stop());

/** A typed call of one of acme's operations as one of its actors. */
const call = <O extends OrgOperationId>(actor: ActorName, operationId: O, ...input: OrgCallArgs<O>) =>
  hub.orgCall('acme', cookies[actor], operationId, ...input);
const createFolder = async (body: RequestBody<'createFolder'>) => {
  const res = await call('admin', 'createFolder', { body });
  expectOk(res, 201);
  return res.body;
};
const explorer = () => okBody(call('admin', 'getExplorer'));

describe('folders', () => {
  it('creates folders at the root and under a parent, each placed last by default', async () => {
    const a = await createFolder({ name: 'Alpha' });
    const b = await createFolder({ name: 'Beta' });
    expect(a).toEqual({ id: expect.any(String), name: 'Alpha', parentId: null, sortKey: expect.any(String) });
    expect(b.sortKey > a.sortKey).toBe(true);
    const child = await createFolder({ name: 'Child', parentId: a.id });
    expect(child.parentId).toBe(a.id);
    const custom = await createFolder({ name: 'Custom', sortKey: 'zz' });
    const after = await createFolder({ name: 'After custom' });
    expect(after.sortKey > custom.sortKey).toBe(true);
  });

  it('orders the explorer by sortKey, then name, and counts children and projects', async () => {
    const parent = await createFolder({ name: 'Counted', sortKey: 'm' });
    await createFolder({ name: 'Sub 2', parentId: parent.id, sortKey: 'b' });
    await createFolder({ name: 'Sub 1', parentId: parent.id, sortKey: 'b' });
    await createFolder({ name: 'Sub 0', parentId: parent.id, sortKey: 'a' });
    expectOk(await call('admin', 'createProject', { body: { name: 'In counted', folderId: parent.id } }), 201);
    const archived = await okBody(call('admin', 'createProject', { body: { name: 'Gone', folderId: parent.id } }));
    expectOk(await call('admin', 'archiveProject', { path: { projectId: archived.id } }));
    const archivedSub = await createFolder({ name: 'Archived sub', parentId: parent.id });
    expectOk(await call('admin', 'archiveFolder', { path: { folderId: archivedSub.id } }));
    const { folders } = await explorer();
    const counted = folders.find((f) => f.id === parent.id);
    // Only what is active counts: the archived project and sub-folder are in neither count.
    expect(counted).toMatchObject({ projectCount: 1, childFolderCount: 3 });
    expect(folders.find((f) => f.id === archivedSub.id)).toBeUndefined();
    const subs = folders.filter((f) => f.parentId === parent.id).map((f) => f.name);
    expect(subs).toEqual(['Sub 0', 'Sub 1', 'Sub 2']);
    const keys = folders.map((f) => f.sortKey);
    expect(keys).toEqual([...keys].sort());
  });

  it('renames, re-keys and moves a folder', async () => {
    const a = await createFolder({ name: 'Movable' });
    const b = await createFolder({ name: 'Target' });
    const res = await call('admin', 'updateFolder', {
      path: { folderId: a.id },
      body: { name: 'Moved', sortKey: 'k1', parentId: b.id },
    });
    expectOk(res);
    expect(res.body).toEqual({ id: a.id, name: 'Moved', sortKey: 'k1', parentId: b.id });
    const back = await call('admin', 'updateFolder', { path: { folderId: a.id }, body: { parentId: null } });
    expectOk(back);
    expect(back.body.parentId).toBeNull();
  });

  it('refuses to move a folder under itself or a descendant (409 folder_cycle), changing nothing', async () => {
    const top = await createFolder({ name: 'Top' });
    const mid = await createFolder({ name: 'Mid', parentId: top.id });
    const leaf = await createFolder({ name: 'Leaf', parentId: mid.id });
    for (const parentId of [top.id, mid.id, leaf.id]) {
      const res = await call('admin', 'updateFolder', {
        path: { folderId: top.id },
        body: { parentId, name: 'Renamed too' },
      });
      expect(res.status).toBe(409);
      expect(errorBody(res).error.code).toBe('folder_cycle');
    }
    const after = (await explorer()).folders.find((f) => f.id === top.id);
    expect(after).toMatchObject({ name: 'Top', parentId: null });
  });

  it('archives only empty folders (409 folder_not_empty), and archived folders leave the explorer', async () => {
    const full = await createFolder({ name: 'Full' });
    const inner = await createFolder({ name: 'Inner', parentId: full.id });
    let res = await call('admin', 'archiveFolder', { path: { folderId: full.id } });
    expect(res.status).toBe(409);
    expect(errorBody(res).error.code).toBe('folder_not_empty');
    res = await call('admin', 'archiveFolder', { path: { folderId: inner.id } });
    expect(res.body).toEqual({ archived: true, folderId: inner.id });
    res = await call('admin', 'archiveFolder', { path: { folderId: full.id } });
    expectOk(res);
    const ids = (await explorer()).folders.map((f) => f.id);
    expect(ids).not.toContain(full.id);
    expect(ids).not.toContain(inner.id);
    expect(errorBody(await call('admin', 'archiveFolder', { path: { folderId: full.id } })).error.code).toBe(
      'folder_not_found',
    );
    expect(
      errorBody(await call('admin', 'updateFolder', { path: { folderId: full.id }, body: { name: 'x' } })).error.code,
    ).toBe('folder_not_found');
    expect(
      errorBody(await call('admin', 'createFolder', { body: { name: 'under archived', parentId: full.id } })).error
        .code,
    ).toBe('folder_not_found');
  });

  it('counts a project in a folder as content even when it is the only thing there', async () => {
    const folder = await createFolder({ name: 'Holds a project' });
    const project = await call('admin', 'createProject', { body: { name: 'Inside', folderId: folder.id } });
    expectOk(project, 201);
    expect(errorBody(await call('admin', 'archiveFolder', { path: { folderId: folder.id } })).error.code).toBe(
      'folder_not_empty',
    );
    await call('admin', 'archiveProject', { path: { projectId: project.body.id } });
    expect((await call('admin', 'archiveFolder', { path: { folderId: folder.id } })).status).toBe(200);
  });

  it('does not accept a parent from another organization', async () => {
    const foreign = await hub.call('createFolder', {
      path: { orgSlug: 'globex' },
      cookie: cookies.otherOrgOwner,
      body: { name: 'Globex folder' },
    });
    expectOk(foreign, 201);
    const res = await call('admin', 'createFolder', { body: { name: 'Sneaky', parentId: foreign.body.id } });
    expect(res.status).toBe(404);
    expect(errorBody(res).error.code).toBe('folder_not_found');
    expect(
      errorBody(await call('admin', 'updateFolder', { path: { folderId: foreign.body.id }, body: { name: 'x' } })).error
        .code,
    ).toBe('folder_not_found');
    expect(errorBody(await call('admin', 'archiveFolder', { path: { folderId: foreign.body.id } })).error.code).toBe(
      'folder_not_found',
    );
  });
});
