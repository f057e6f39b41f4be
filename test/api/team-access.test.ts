import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestHub } from '../support/test-hub.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';

let hub: TestHub;
let org: OrgFixture;

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'acme');
});
afterAll(() => hub.stop());

async function body<T = any>(promise: Promise<{ status: number; body: T; text: string }>, status = 200): Promise<T> {
  const res = await promise;
  expect(res.status, res.text).toBe(status);
  return res.body;
}

async function team(slug: string, members: Array<'admin' | 'member'> = []) {
  const created = await body(org.api('owner', 'POST', '/teams', { slug, name: `Team ${slug}` }), 201);
  for (const who of members) await body(org.api('owner', 'POST', `/teams/${created.id}/members`, { userId: org.userIds[who] }), 201);
  return created as { id: string; slug: string; name: string };
}

const projectIds = async (actor: 'admin' | 'member' | 'owner') =>
  (await body(org.api(actor, 'GET', '/my-projects'))).projects.map((p: { id: string }) => p.id);

describe('team access', () => {
  it('grants a team by slug or id, upserts the role, and lists entries by team name', async () => {
    const project = await body(org.api('owner', 'POST', '/projects', { name: 'Granted' }), 201);
    const writers = await team('writers');
    const readers = await team('readers');
    const entry = await body(org.api('owner', 'PUT', `/projects/${project.id}/team-access`, { teamSlug: 'writers', role: 'EDIT' }));
    expect(entry).toEqual({
      grantId: expect.any(String),
      projectId: project.id,
      organizationId: org.id,
      teamId: writers.id,
      teamSlug: 'writers',
      teamName: 'Team writers',
      role: 'EDIT',
    });
    const changed = await body(org.api('owner', 'PUT', `/projects/${project.id}/team-access`, { teamId: writers.id, role: 'MANAGE' }));
    expect(changed).toEqual({ ...entry, role: 'MANAGE' });
    await body(org.api('owner', 'PUT', `/projects/${project.id}/team-access`, { teamId: readers.id, role: 'READ' }));
    const list = await body(org.api('owner', 'GET', `/projects/${project.id}/team-access`));
    expect(list.access.map((e: { teamSlug: string; role: string }) => [e.teamSlug, e.role])).toEqual([
      ['readers', 'READ'],
      ['writers', 'MANAGE'],
    ]);
  });

  it('removes a grant (204), then answers grant_not_found', async () => {
    const project = await body(org.api('owner', 'POST', '/projects', { name: 'Revocable' }), 201);
    const t = await team('revocable');
    await body(org.api('owner', 'PUT', `/projects/${project.id}/team-access`, { teamId: t.id, role: 'READ' }));
    const removed = await org.api('owner', 'DELETE', `/projects/${project.id}/team-access/${t.id}`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    const again = await org.api('owner', 'DELETE', `/projects/${project.id}/team-access/${t.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('grant_not_found');
    expect((await body(org.api('owner', 'GET', `/projects/${project.id}/team-access`))).access).toEqual([]);
  });

  it('refuses unknown and archived teams with team_not_found', async () => {
    const project = await body(org.api('owner', 'POST', '/projects', { name: 'Picky' }), 201);
    const gone = await team('gone');
    await body(org.api('owner', 'POST', `/teams/${gone.id}/archive`));
    for (const ref of [{ teamSlug: 'gone' }, { teamId: gone.id }, { teamSlug: 'never-was' }]) {
      const res = await org.api('owner', 'PUT', `/projects/${project.id}/team-access`, { ...ref, role: 'READ' });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('team_not_found');
    }
  });

  it('takes no change on an archived project (409 project_archived) but still reads', async () => {
    const project = await body(org.api('owner', 'POST', '/projects', { name: 'Frozen' }), 201);
    const t = await team('frozen-team');
    await body(org.api('owner', 'PUT', `/projects/${project.id}/team-access`, { teamId: t.id, role: 'READ' }));
    await body(org.api('owner', 'POST', `/projects/${project.id}/archive`));
    for (const [method, path, payload] of [
      ['PUT', `/projects/${project.id}/team-access`, { teamId: t.id, role: 'EDIT' }],
      ['DELETE', `/projects/${project.id}/team-access/${t.id}`, undefined],
    ] as const) {
      const res = await org.api('owner', method, path, payload);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('project_archived');
    }
    expect((await body(org.api('owner', 'GET', `/projects/${project.id}/team-access`))).access).toHaveLength(1);
  });

  it('rejects both or neither of teamId and teamSlug', async () => {
    const project = await body(org.api('owner', 'POST', '/projects', { name: 'Strict' }), 201);
    for (const payload of [{ role: 'READ' }, { teamId: 'x', teamSlug: 'y', role: 'READ' }, { teamSlug: 'y', role: 'OWNER' }]) {
      const res = await org.api('owner', 'PUT', `/projects/${project.id}/team-access`, payload);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
  });
});

describe('what grants confer', () => {
  it('a team grant reaches its members; archiving the team or removing the member ends it at once', async () => {
    const project = await body(org.api('owner', 'POST', '/projects', { name: 'Through a team' }), 201);
    const t = await team('conduit', ['member']);
    expect(await projectIds('member')).not.toContain(project.id);
    expect((await org.api('member', 'GET', `/projects/${project.id}`)).body.error.code).toBe('project_access_denied');

    await body(org.api('owner', 'PUT', `/projects/${project.id}/team-access`, { teamId: t.id, role: 'READ' }));
    expect(await projectIds('member')).toContain(project.id);
    const detail = await body(org.api('member', 'GET', `/projects/${project.id}`));
    expect(detail).toMatchObject({ id: project.id, actorIsOrgAdmin: false, actorCanManageProject: false });
    expect((await org.api('member', 'GET', `/projects/${project.id}/sessions`)).status).toBe(200);

    await body(org.api('owner', 'POST', `/teams/${t.id}/members/${org.userIds.member}/revoke`));
    expect(await projectIds('member')).not.toContain(project.id);
    expect((await org.api('member', 'GET', `/projects/${project.id}`)).status).toBe(403);

    await body(org.api('owner', 'POST', `/teams/${t.id}/members`, { userId: org.userIds.member }), 201);
    expect(await projectIds('member')).toContain(project.id);
    await body(org.api('owner', 'POST', `/teams/${t.id}/archive`));
    expect(await projectIds('member')).not.toContain(project.id);
    expect((await org.api('member', 'GET', `/projects/${project.id}`)).body.error.code).toBe('project_access_denied');
  });

  it('MANAGE through a team lets a member manage team access; org admins without it may not', async () => {
    const project = await body(org.api('owner', 'POST', '/projects', { name: 'Delegated' }), 201);
    const managers = await team('managers', ['member']);
    const other = await team('others');
    await body(org.api('owner', 'PUT', `/projects/${project.id}/team-access`, { teamId: managers.id, role: 'MANAGE' }));
    const detail = await body(org.api('member', 'GET', `/projects/${project.id}`));
    expect(detail.actorCanManageProject).toBe(true);
    await body(org.api('member', 'PUT', `/projects/${project.id}/team-access`, { teamId: other.id, role: 'READ' }));

    const admin = await org.api('admin', 'PUT', `/projects/${project.id}/team-access`, { teamId: other.id, role: 'EDIT' });
    expect(admin.status).toBe(403);
    expect(admin.body.error.code).toBe('project_manage_required');
    const adminView = await body(org.api('admin', 'GET', `/projects/${project.id}`));
    expect(adminView).toMatchObject({ actorIsOrgAdmin: true, actorCanManageProject: false });
  });

  it('a revoked member loses project access through open sessions on the next request', async () => {
    const added = await body(org.api('owner', 'POST', '/members', { imOpenId: 'ou_leaving', role: 'MEMBER' }), 201);
    await body(org.api('owner', 'PATCH', '/settings', { membersCanCreateProjects: true }));
    const cookie = await hub.login('ou_leaving');
    const project = await body(hub.request('POST', '/api/org/acme/projects', { cookie, body: { name: 'Mine' } }), 201);
    expect((await hub.request('GET', `/api/org/acme/projects/${project.id}`, { cookie })).status).toBe(200);
    await body(org.api('owner', 'POST', `/members/${added.userId}/revoke`));
    const after = await hub.request('GET', `/api/org/acme/projects/${project.id}`, { cookie });
    expect(after.status).toBe(404);
    expect(after.body.error.code).toBe('org_not_found');
    await body(org.api('owner', 'PATCH', '/settings', { membersCanCreateProjects: false }));
  });
});
