import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestHub } from '../support/test-hub.js';
import { seedActors, type ActorName } from '../support/actors.js';
import { cliEnv, runHub } from '../support/hub-cli.js';

let hub: TestHub;
let cookies: Record<ActorName, string | undefined>;

beforeAll(async () => {
  hub = await TestHub.start();
  cookies = await seedActors(hub);
});
afterAll(() => hub.stop());

const api = (method: string, path: string, body?: unknown, actor: ActorName = 'admin') =>
  hub.request(method, `/api/org/acme${path}`, { cookie: cookies[actor], body });
const setMembersCanCreate = (value: boolean) => api('PATCH', '/settings', { membersCanCreateProjects: value });
async function createProject(body: Record<string, unknown>, actor: ActorName = 'admin'): Promise<string> {
  const res = await api('POST', '/projects', body, actor);
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** Agent sessions are written by the agent runtime; the tests seed them as rows. */
async function seedSession(projectId: string, id: string, updatedAt: string, archived = false) {
  const org = await hub.services.organizations.findBySlug('acme');
  await hub.services.db('agent_sessions').insert({
    id,
    organization_id: org!.id,
    project_id: projectId,
    provider: 'anthropic',
    role_id: 'coder',
    model: 'model-a',
    title: id === 's-untitled' ? null : `Session ${id}`,
    run_count: 3,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: updatedAt,
    archived_at: archived ? updatedAt : null,
  });
}

describe('creating projects', () => {
  it('returns only id and name, creates the workspace, and gives the creator MANAGE', async () => {
    const res = await api('POST', '/projects', { name: 'Apollo' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), name: 'Apollo' });
    const detail = await api('GET', `/projects/${res.body.id}`);
    expect(detail.body).toMatchObject({ name: 'Apollo', actorIsOrgAdmin: true, actorCanManageProject: true, archivedAt: null });
    expect(detail.body.createdBy).toMatchObject({ imOpenId: 'admin-1', displayName: 'admin-1' });
    expect(fs.statSync(detail.body.workspaceDir).isDirectory()).toBe(true);
    expect(detail.body.workspaceDir.startsWith(path.join(hub.services.config.dataDir, 'workspaces'))).toBe(true);
  });

  it('lets members create only when the settings allow it', async () => {
    await setMembersCanCreate(false);
    const denied = await api('POST', '/projects', { name: 'Member project' }, 'member');
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('org_admin_required');
    await setMembersCanCreate(true);
    const id = await createProject({ name: 'Member project' }, 'member');
    const mine = await api('GET', '/my-projects', undefined, 'member');
    expect(mine.body.projects.map((p: { id: string }) => p.id)).toContain(id);
    const detail = await api('GET', `/projects/${id}`, undefined, 'member');
    expect(detail.body).toMatchObject({ actorIsOrgAdmin: false, actorCanManageProject: true });
    await setMembersCanCreate(false);
  });

  it('puts the project in an active folder of the organization, or answers folder_not_found', async () => {
    const folder = await api('POST', '/folders', { name: 'Projects here' });
    const id = await createProject({ name: 'Foldered', folderId: folder.body.id });
    expect((await api('GET', `/projects/${id}`)).body.folder).toEqual({ id: folder.body.id, name: 'Projects here' });
    const before = (await api('GET', '/explorer')).body.projects.length;
    const missing = await api('POST', '/projects', { name: 'Lost', folderId: 'no-such-folder' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('folder_not_found');
    expect((await api('GET', '/explorer')).body.projects.length).toBe(before);
  });
});

describe('project life cycle', () => {
  it('renames and moves, returning the full detail', async () => {
    const id = await createProject({ name: 'Old name' });
    const folder = await api('POST', '/folders', { name: 'Destination' });
    const renamed = await api('PATCH', `/projects/${id}`, { name: 'New name' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: 'New name', actorIsOrgAdmin: true });
    const moved = await api('PATCH', `/projects/${id}/folder`, { folderId: folder.body.id });
    expect(moved.body).toMatchObject({ folderId: folder.body.id, folder: { id: folder.body.id, name: 'Destination' } });
    const back = await api('PATCH', `/projects/${id}/folder`, { folderId: null });
    expect(back.body).toMatchObject({ folderId: null, folder: null });
  });

  it('archives: later mutations get 409 project_archived, the detail stays readable, lists drop it', async () => {
    const id = await createProject({ name: 'To archive' });
    const archived = await api('POST', `/projects/${id}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body.archivedAt).toEqual(expect.any(String));
    for (const [method, suffix, body] of [
      ['PATCH', '', { name: 'Nope' }],
      ['PATCH', '/folder', { folderId: null }],
      ['POST', '/archive', undefined],
    ] as const) {
      const res = await api(method, `/projects/${id}${suffix}`, body);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('project_archived');
    }
    const detail = await api('GET', `/projects/${id}`);
    expect(detail.body).toMatchObject({ name: 'To archive', archivedAt: archived.body.archivedAt });
    expect((await api('GET', '/explorer')).body.projects.map((p: { id: string }) => p.id)).not.toContain(id);
    expect((await api('GET', '/my-projects')).body.projects.map((p: { id: string }) => p.id)).not.toContain(id);
  });

  it('answers project_not_found for unknown ids and ids of another organization', async () => {
    const foreign = await hub.request('POST', '/api/org/globex/projects', { cookie: cookies.otherOrgOwner, body: { name: 'Globex project' } });
    for (const id of ['unknown-id', foreign.body.id]) {
      for (const [method, suffix, body] of [
        ['GET', '', undefined],
        ['PATCH', '', { name: 'x' }],
        ['PATCH', '/folder', { folderId: null }],
        ['POST', '/archive', undefined],
        ['POST', '/binding/archive', undefined],
        ['GET', '/sessions', undefined],
        ['GET', '/team-access', undefined],
      ] as const) {
        const res = await api(method, `/projects/${id}${suffix}`, body, 'owner');
        expect(res.status, `${method} ${suffix}`).toBe(404);
        expect(res.body.error.code).toBe('project_not_found');
      }
    }
    const detail = await hub.request('GET', `/api/org/globex/projects/${foreign.body.id}`, { cookie: cookies.otherOrgOwner });
    expect(detail.body.name).toBe('Globex project');
  });
});

describe('chat bindings', () => {
  it('are made with hub project bind, shown on the project, and archived over HTTP', async () => {
    const id = await createProject({ name: 'Bound' });
    const env = cliEnv(hub.database.dataDir, hub.database.databaseUrl);
    const bind = await runHub(['project', 'bind', 'acme', id, 'oc_chat_1'], env);
    expect(bind.stderr).toBe('');
    expect(bind.stdout).toBe(`bound chat oc_chat_1 to project ${id}\n`);
    const detail = await api('GET', `/projects/${id}`);
    expect(detail.body.binding).toEqual({ chatId: 'oc_chat_1', createdAt: expect.any(String) });
    const listed = (await api('GET', '/explorer')).body.projects.find((p: { id: string }) => p.id === id);
    expect(listed.binding).toEqual(detail.body.binding);

    const other = await createProject({ name: 'Other' });
    const taken = await runHub(['project', 'bind', 'acme', other, 'oc_chat_1'], env);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toMatch(/already bound/);
    expect((await runHub(['project', 'bind', 'nope', id, 'oc_x'], env)).stderr).toMatch(/no organization "nope"/);
    expect((await runHub(['project', 'bind', 'acme', id], env)).code).toBe(2);

    const archived = await api('POST', `/projects/${id}/binding/archive`);
    expect(archived.body).toEqual({ archived: true, projectId: id });
    expect((await api('GET', `/projects/${id}`)).body.binding).toBeNull();
    const again = await api('POST', `/projects/${id}/binding/archive`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('binding_not_found');
  });
});

describe('project sessions', () => {
  it('lists open sessions newest first, honours limit, and validates it', async () => {
    const id = await createProject({ name: 'Busy' });
    await seedSession(id, 's-1', '2026-03-01T00:00:00.000Z');
    await seedSession(id, 's-2', '2026-03-03T00:00:00.000Z');
    await seedSession(id, 's-untitled', '2026-03-02T00:00:00.000Z');
    await seedSession(id, 's-archived', '2026-03-04T00:00:00.000Z', true);
    const res = await api('GET', `/projects/${id}/sessions`);
    expect(res.body.sessions.map((s: { id: string }) => s.id)).toEqual(['s-2', 's-untitled', 's-1']);
    expect(res.body.sessions[0]).toEqual({
      id: 's-2',
      provider: 'anthropic',
      roleId: 'coder',
      model: 'model-a',
      title: 'Session s-2',
      runCount: 3,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-03-03T00:00:00.000Z',
    });
    expect((await api('GET', `/projects/${id}/sessions?limit=1`)).body.sessions.map((s: { id: string }) => s.id)).toEqual(['s-2']);
    for (const limit of ['0', '201', 'abc']) {
      const bad = await api('GET', `/projects/${id}/sessions?limit=${limit}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('validation_failed');
    }
    expect((await api('GET', `/projects/${id}/sessions?limit=200`)).status).toBe(200);
  });
});
