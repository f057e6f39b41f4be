import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, expectOk, okBody } from '../support/assertions.js';
import type { OrgCallArgs, OrgOperationId, RequestBody } from '../support/api-client.js';
import { TestHub } from '../support/test-hub.js';
import { seedActors, type ActorName } from '../support/actors.js';
import { cliEnv, runHub } from '../support/hub-cli.js';
import { inProjectListOrder } from '../support/list-order.js';

let hub: TestHub;
let cookies: Record<ActorName, string | undefined>;

beforeAll(async () => {
  hub = await TestHub.start();
  cookies = await seedActors(hub);
});
afterAll(() => hub.stop());

/** A raw request to acme, for the operations a test picks at run time. */
const api = (method: string, path: string, body?: unknown, actor: ActorName = 'admin') =>
  hub.request(method, `/api/org/acme${path}`, { cookie: cookies[actor], body });
/** A typed call of one of acme's operations as one of its actors. */
const call = <O extends OrgOperationId>(actor: ActorName, operationId: O, ...input: OrgCallArgs<O>) =>
  hub.orgCall('acme', cookies[actor], operationId, ...input);
const setMembersCanCreate = (value: boolean) =>
  call('admin', 'updateOrgSettings', { body: { membersCanCreateProjects: value } });
async function createProject(body: RequestBody<'createProject'>, actor: ActorName = 'admin'): Promise<string> {
  const res = await call(actor, 'createProject', { body });
  expectOk(res, 201);
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
    const res = await call('admin', 'createProject', { body: { name: 'Apollo' } });
    expectOk(res, 201);
    expect(res.body).toEqual({ id: expect.any(String), name: 'Apollo' });
    const detail = await call('admin', 'getProject', { path: { projectId: res.body.id } });
    expectOk(detail);
    expect(detail.body).toMatchObject({
      name: 'Apollo',
      actorIsOrgAdmin: true,
      actorCanManageProject: true,
      archivedAt: null,
    });
    expect(detail.body.createdBy).toMatchObject({ imOpenId: 'admin-1', displayName: 'admin-1' });
    const workspaceDir = detail.body.workspaceDir!;
    expect(fs.statSync(workspaceDir).isDirectory()).toBe(true);
    expect(workspaceDir.startsWith(path.join(hub.services.config.dataDir, 'workspaces'))).toBe(true);
  });

  it('shows the workspace path to org admins only, not to the project’s own MANAGE holder', async () => {
    await setMembersCanCreate(true);
    const created = await okBody(call('member', 'createProject', { body: { name: 'Path of a member project' } }));
    const ofMember = await okBody(call('member', 'getProject', { path: { projectId: created.id } }));
    expect(ofMember).toMatchObject({ actorCanManageProject: true, actorIsOrgAdmin: false, workspaceDir: null });
    const ofAdmin = await okBody(call('admin', 'getProject', { path: { projectId: created.id } }));
    const org = await hub.services.organizations.findBySlug('acme');
    expect(ofAdmin.workspaceDir).toBe(path.join(hub.services.config.dataDir, 'workspaces', org!.id, created.id));
  });

  it('lets members create only when the settings allow it', async () => {
    await setMembersCanCreate(false);
    const denied = await call('member', 'createProject', { body: { name: 'Member project' } });
    expect(denied.status).toBe(403);
    expect(errorBody(denied).error.code).toBe('org_admin_required');
    await setMembersCanCreate(true);
    const id = await createProject({ name: 'Member project' }, 'member');
    const mine = await call('member', 'listMyProjects');
    expectOk(mine);
    expect(mine.body.projects.map((p) => p.id)).toContain(id);
    const detail = await call('member', 'getProject', { path: { projectId: id } });
    expect(detail.body).toMatchObject({ actorIsOrgAdmin: false, actorCanManageProject: true });
    await setMembersCanCreate(false);
  });

  it('puts the project in an active folder of the organization, or answers folder_not_found', async () => {
    const folder = await call('admin', 'createFolder', { body: { name: 'Projects here' } });
    expectOk(folder, 201);
    const id = await createProject({ name: 'Foldered', folderId: folder.body.id });
    expect((await okBody(call('admin', 'getProject', { path: { projectId: id } }))).folder).toEqual({
      id: folder.body.id,
      name: 'Projects here',
    });
    const before = (await okBody(call('admin', 'getExplorer'))).projects.length;
    const missing = await call('admin', 'createProject', { body: { name: 'Lost', folderId: 'no-such-folder' } });
    expect(missing.status).toBe(404);
    expect(errorBody(missing).error.code).toBe('folder_not_found');
    expect((await okBody(call('admin', 'getExplorer'))).projects.length).toBe(before);
  });
});

describe('project life cycle', () => {
  it('renames and moves, returning the full detail', async () => {
    const id = await createProject({ name: 'Old name' });
    const folder = await call('admin', 'createFolder', { body: { name: 'Destination' } });
    expectOk(folder, 201);
    const renamed = await call('admin', 'renameProject', { path: { projectId: id }, body: { name: 'New name' } });
    expectOk(renamed);
    expect(renamed.body).toMatchObject({ id, name: 'New name', actorIsOrgAdmin: true });
    const moved = await call('admin', 'moveProject', { path: { projectId: id }, body: { folderId: folder.body.id } });
    expect(moved.body).toMatchObject({ folderId: folder.body.id, folder: { id: folder.body.id, name: 'Destination' } });
    const back = await call('admin', 'moveProject', { path: { projectId: id }, body: { folderId: null } });
    expect(back.body).toMatchObject({ folderId: null, folder: null });
  });

  it('archives: later mutations get 409 project_archived, the detail stays readable, lists drop it', async () => {
    const id = await createProject({ name: 'To archive' });
    const archived = await call('admin', 'archiveProject', { path: { projectId: id } });
    expectOk(archived);
    expect(archived.body.archivedAt).toEqual(expect.any(String));
    for (const [method, suffix, body] of [
      ['PATCH', '', { name: 'Nope' }],
      ['PATCH', '/folder', { folderId: null }],
      ['POST', '/archive', undefined],
    ] as const) {
      const res = await api(method, `/projects/${id}${suffix}`, body);
      expect(res.status).toBe(409);
      expect(errorBody(res).error.code).toBe('project_archived');
    }
    const detail = await call('admin', 'getProject', { path: { projectId: id } });
    expect(detail.body).toMatchObject({ name: 'To archive', archivedAt: archived.body.archivedAt });
    expect((await okBody(call('admin', 'getExplorer'))).projects.map((p) => p.id)).not.toContain(id);
    expect((await okBody(call('admin', 'listMyProjects'))).projects.map((p) => p.id)).not.toContain(id);
  });

  it('answers project_not_found for unknown ids and ids of another organization', async () => {
    const foreign = await hub.call('createProject', {
      path: { orgSlug: 'globex' },
      cookie: cookies.otherOrgOwner,
      body: { name: 'Globex project' },
    });
    expectOk(foreign, 201);
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
        expect(errorBody(res).error.code).toBe('project_not_found');
      }
    }
    const detail = await hub.call('getProject', {
      path: { orgSlug: 'globex', projectId: foreign.body.id },
      cookie: cookies.otherOrgOwner,
    });
    expectOk(detail);
    expect(detail.body.name).toBe('Globex project');
  });
});

describe('project lists', () => {
  it('come by name as people read it, then exactly, then id, whatever the engine folds', async () => {
    // SQLite's lower() folds ASCII only, PostgreSQL's by its locale: the names the database
    // orders differently from the list come out in the list's order all the same.
    const names = ['Éclair', 'zulu', 'Alpha', 'alpha', 'ÉCLAIR', 'beta', 'Ärger', 'Beta', 'İzmir', 'izmir', 'Zulu'];
    const ids: string[] = [];
    for (const name of names) ids.push(await createProject({ name }));
    const archived = await createProject({ name: 'Aaa archived' });
    expectOk(await call('admin', 'archiveProject', { path: { projectId: archived } }));

    const { projects } = await okBody(call('admin', 'getExplorer'));
    expect(projects.map((p) => p.id)).toEqual(inProjectListOrder(projects).map((p) => p.id));
    expect(projects.map((p) => p.id)).not.toContain(archived);
    const ours = projects.filter((p) => ids.includes(p.id)).map((p) => p.name);
    expect(ours).toEqual([
      'Alpha',
      'alpha',
      'Beta',
      'beta',
      'izmir',
      'İzmir',
      'Zulu',
      'zulu',
      'Ärger',
      'ÉCLAIR',
      'Éclair',
    ]);

    const mine = await okBody(call('admin', 'listMyProjects'));
    expect(mine.projects.map((p) => p.id)).toEqual(inProjectListOrder(mine.projects).map((p) => p.id));
  });
});

describe('chat bindings', () => {
  it('are made with hub project bind, shown on the project, and archived over HTTP', async () => {
    const id = await createProject({ name: 'Bound' });
    const env = cliEnv(hub.database.dataDir, hub.database.databaseUrl);
    const bind = await runHub(['project', 'bind', 'acme', id, 'oc_chat_1'], env);
    expect(bind.stderr).toBe('');
    expect(bind.stdout).toBe(`bound chat oc_chat_1 to project ${id}\n`);
    const detail = await call('admin', 'getProject', { path: { projectId: id } });
    expectOk(detail);
    expect(detail.body.binding).toEqual({ chatId: 'oc_chat_1', createdAt: expect.any(String) });
    const listed = (await okBody(call('admin', 'getExplorer'))).projects.find((p) => p.id === id);
    expect(listed!.binding).toEqual(detail.body.binding);

    const other = await createProject({ name: 'Other' });
    const taken = await runHub(['project', 'bind', 'acme', other, 'oc_chat_1'], env);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toMatch(/already bound/);
    expect((await runHub(['project', 'bind', 'nope', id, 'oc_x'], env)).stderr).toMatch(/no organization "nope"/);
    expect((await runHub(['project', 'bind', 'acme', id], env)).code).toBe(2);

    const archived = await call('admin', 'archiveProjectBinding', { path: { projectId: id } });
    expect(archived.body).toEqual({ archived: true, projectId: id });
    expect((await okBody(call('admin', 'getProject', { path: { projectId: id } }))).binding).toBeNull();
    const again = await call('admin', 'archiveProjectBinding', { path: { projectId: id } });
    expect(again.status).toBe(404);
    expect(errorBody(again).error.code).toBe('binding_not_found');
  });
});

describe('project sessions', () => {
  it('lists open sessions newest first, honours limit, and validates it', async () => {
    const id = await createProject({ name: 'Busy' });
    await seedSession(id, 's-1', '2026-03-01T00:00:00.000Z');
    await seedSession(id, 's-2', '2026-03-03T00:00:00.000Z');
    await seedSession(id, 's-untitled', '2026-03-02T00:00:00.000Z');
    await seedSession(id, 's-archived', '2026-03-04T00:00:00.000Z', true);
    const res = await call('admin', 'listProjectSessions', { path: { projectId: id } });
    expectOk(res);
    expect(res.body.sessions.map((s) => s.id)).toEqual(['s-2', 's-untitled', 's-1']);
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
    expect(
      (
        await okBody(call('admin', 'listProjectSessions', { path: { projectId: id }, query: { limit: 1 } }))
      ).sessions.map((s) => s.id),
    ).toEqual(['s-2']);
    for (const limit of ['0', '201', 'abc']) {
      const bad = await api('GET', `/projects/${id}/sessions?limit=${limit}`);
      expect(bad.status).toBe(400);
      expect(errorBody(bad).error.code).toBe('validation_failed');
    }
    expect(
      (await call('admin', 'listProjectSessions', { path: { projectId: id }, query: { limit: 200 } })).status,
    ).toBe(200);
  });
});
