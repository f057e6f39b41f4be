import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestHub } from '../support/test-hub.js';
import { seedActors, type ActorName } from '../support/actors.js';

let hub: TestHub;
let cookies: Record<ActorName, string | undefined>;

beforeAll(async () => {
  hub = await TestHub.start();
  cookies = await seedActors(hub);
});
afterAll(() => hub.stop());

const api = (method: string, path: string, body?: unknown, actor: ActorName = 'admin') =>
  hub.request(method, `/api/org/acme${path}`, { cookie: cookies[actor], body });
const createFolder = async (body: Record<string, unknown>) => {
  const res = await api('POST', '/folders', body);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; name: string; parentId: string | null; sortKey: string };
};
const explorer = async () => (await api('GET', '/explorer')).body;

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
    await api('POST', '/projects', { name: 'In counted', folderId: parent.id });
    const { folders } = await explorer();
    const counted = folders.find((f: { id: string }) => f.id === parent.id);
    expect(counted).toMatchObject({ projectCount: 1, childFolderCount: 3 });
    const subs = folders.filter((f: { parentId: string }) => f.parentId === parent.id).map((f: { name: string }) => f.name);
    expect(subs).toEqual(['Sub 0', 'Sub 1', 'Sub 2']);
    const keys = folders.map((f: { sortKey: string }) => f.sortKey);
    expect(keys).toEqual([...keys].sort());
  });

  it('renames, re-keys and moves a folder', async () => {
    const a = await createFolder({ name: 'Movable' });
    const b = await createFolder({ name: 'Target' });
    const res = await api('PATCH', `/folders/${a.id}`, { name: 'Moved', sortKey: 'k1', parentId: b.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: a.id, name: 'Moved', sortKey: 'k1', parentId: b.id });
    const back = await api('PATCH', `/folders/${a.id}`, { parentId: null });
    expect(back.body.parentId).toBeNull();
  });

  it('refuses to move a folder under itself or a descendant (409 folder_cycle), changing nothing', async () => {
    const top = await createFolder({ name: 'Top' });
    const mid = await createFolder({ name: 'Mid', parentId: top.id });
    const leaf = await createFolder({ name: 'Leaf', parentId: mid.id });
    for (const parentId of [top.id, mid.id, leaf.id]) {
      const res = await api('PATCH', `/folders/${top.id}`, { parentId, name: 'Renamed too' });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('folder_cycle');
    }
    const after = (await explorer()).folders.find((f: { id: string }) => f.id === top.id);
    expect(after).toMatchObject({ name: 'Top', parentId: null });
  });

  it('archives only empty folders (409 folder_not_empty), and archived folders leave the explorer', async () => {
    const full = await createFolder({ name: 'Full' });
    const inner = await createFolder({ name: 'Inner', parentId: full.id });
    let res = await api('POST', `/folders/${full.id}/archive`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('folder_not_empty');
    res = await api('POST', `/folders/${inner.id}/archive`);
    expect(res.body).toEqual({ archived: true, folderId: inner.id });
    res = await api('POST', `/folders/${full.id}/archive`);
    expect(res.status).toBe(200);
    const ids = (await explorer()).folders.map((f: { id: string }) => f.id);
    expect(ids).not.toContain(full.id);
    expect(ids).not.toContain(inner.id);
    expect((await api('POST', `/folders/${full.id}/archive`)).body.error.code).toBe('folder_not_found');
    expect((await api('PATCH', `/folders/${full.id}`, { name: 'x' })).body.error.code).toBe('folder_not_found');
    expect((await api('POST', '/folders', { name: 'under archived', parentId: full.id })).body.error.code).toBe('folder_not_found');
  });

  it('counts a project in a folder as content even when it is the only thing there', async () => {
    const folder = await createFolder({ name: 'Holds a project' });
    const project = await api('POST', '/projects', { name: 'Inside', folderId: folder.id });
    expect((await api('POST', `/folders/${folder.id}/archive`)).body.error.code).toBe('folder_not_empty');
    await api('POST', `/projects/${project.body.id}/archive`);
    expect((await api('POST', `/folders/${folder.id}/archive`)).status).toBe(200);
  });

  it('does not accept a parent from another organization', async () => {
    const foreign = await hub.request('POST', '/api/org/globex/folders', { cookie: cookies.otherOrgOwner, body: { name: 'Globex folder' } });
    expect(foreign.status).toBe(201);
    const res = await api('POST', '/folders', { name: 'Sneaky', parentId: foreign.body.id });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('folder_not_found');
    expect((await api('PATCH', `/folders/${foreign.body.id}`, { name: 'x' })).body.error.code).toBe('folder_not_found');
    expect((await api('POST', `/folders/${foreign.body.id}/archive`)).body.error.code).toBe('folder_not_found');
  });
});
