import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, expectOk, okBody } from '../support/assertions.js';
import type { RequestBody } from '../support/api-client.js';
import { TestHub } from '../support/test-hub.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';

let hub: TestHub;
let org: OrgFixture;

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'acme');
});
afterAll(() => hub.stop());

async function team(slug: string, members: Array<'admin' | 'member'> = []) {
  const created = await okBody(org.call('owner', 'createTeam', { body: { slug, name: `Team ${slug}` } }), 201);
  for (const who of members)
    await okBody(
      org.call('owner', 'addTeamMember', { path: { teamId: created.id }, body: { userId: org.userIds[who] } }),
      201,
    );
  return created;
}

/** Gives a team a role on the project, as the owner; returns the grant. */
const grant = (projectId: string, body: RequestBody<'putProjectTeamAccess'>) =>
  okBody(org.call('owner', 'putProjectTeamAccess', { path: { projectId }, body }), 200);

const projectIds = async (actor: 'admin' | 'member' | 'owner') =>
  (await okBody(org.call(actor, 'listMyProjects'), 200)).projects.map((p) => p.id);

describe('team access', () => {
  it('grants a team by slug or id, upserts the role, and lists entries by team name', async () => {
    const project = await okBody(org.call('owner', 'createProject', { body: { name: 'Granted' } }), 201);
    const writers = await team('writers');
    const readers = await team('readers');
    const entry = await grant(project.id, { teamSlug: 'writers', role: 'EDIT' });
    expect(entry).toEqual({
      grantId: expect.any(String),
      projectId: project.id,
      organizationId: org.id,
      teamId: writers.id,
      teamSlug: 'writers',
      teamName: 'Team writers',
      role: 'EDIT',
    });
    const changed = await grant(project.id, { teamId: writers.id, role: 'MANAGE' });
    expect(changed).toEqual({ ...entry, role: 'MANAGE' });
    await grant(project.id, { teamId: readers.id, role: 'READ' });
    const list = await okBody(org.call('owner', 'listProjectTeamAccess', { path: { projectId: project.id } }), 200);
    expect(list.access.map((e) => [e.teamSlug, e.role])).toEqual([
      ['readers', 'READ'],
      ['writers', 'MANAGE'],
    ]);
  });

  it('removes a grant (204), then answers grant_not_found', async () => {
    const project = await okBody(org.call('owner', 'createProject', { body: { name: 'Revocable' } }), 201);
    const t = await team('revocable');
    await grant(project.id, { teamId: t.id, role: 'READ' });
    const removed = await org.call('owner', 'deleteProjectTeamAccess', {
      path: { projectId: project.id, teamId: t.id },
    });
    expectOk(removed, 204);
    expect(removed.text).toBe('');
    const again = await org.call('owner', 'deleteProjectTeamAccess', { path: { projectId: project.id, teamId: t.id } });
    expect(again.status).toBe(404);
    expect(errorBody(again).error.code).toBe('grant_not_found');
    expect(
      (await okBody(org.call('owner', 'listProjectTeamAccess', { path: { projectId: project.id } }), 200)).access,
    ).toEqual([]);
  });

  it('refuses unknown and archived teams with team_not_found', async () => {
    const project = await okBody(org.call('owner', 'createProject', { body: { name: 'Picky' } }), 201);
    const gone = await team('gone');
    await okBody(org.call('owner', 'archiveTeam', { path: { teamId: gone.id } }), 200);
    for (const ref of [{ teamSlug: 'gone' }, { teamId: gone.id }, { teamSlug: 'never-was' }]) {
      const res = await org.call('owner', 'putProjectTeamAccess', {
        path: { projectId: project.id },
        body: { ...ref, role: 'READ' },
      });
      expect(res.status).toBe(404);
      expect(errorBody(res).error.code).toBe('team_not_found');
    }
  });

  it('takes no change on an archived project (409 project_archived) but still reads', async () => {
    const project = await okBody(org.call('owner', 'createProject', { body: { name: 'Frozen' } }), 201);
    const t = await team('frozen-team');
    await grant(project.id, { teamId: t.id, role: 'READ' });
    await okBody(org.call('owner', 'archiveProject', { path: { projectId: project.id } }), 200);
    for (const [method, path, payload] of [
      ['PUT', `/projects/${project.id}/team-access`, { teamId: t.id, role: 'EDIT' }],
      ['DELETE', `/projects/${project.id}/team-access/${t.id}`, undefined],
    ] as const) {
      const res = await org.api('owner', method, path, payload);
      expect(res.status).toBe(409);
      expect(errorBody(res).error.code).toBe('project_archived');
    }
    expect(
      (await okBody(org.call('owner', 'listProjectTeamAccess', { path: { projectId: project.id } }), 200)).access,
    ).toHaveLength(1);
  });

  it('rejects both or neither of teamId and teamSlug', async () => {
    const project = await okBody(org.call('owner', 'createProject', { body: { name: 'Strict' } }), 201);
    for (const payload of [
      { role: 'READ' },
      { teamId: 'x', teamSlug: 'y', role: 'READ' },
      { teamSlug: 'y', role: 'OWNER' },
    ]) {
      const res = await org.api('owner', 'PUT', `/projects/${project.id}/team-access`, payload);
      expect(res.status).toBe(400);
      expect(errorBody(res).error.code).toBe('validation_failed');
    }
  });
});

describe('what grants confer', () => {
  it('a team grant reaches its members; archiving the team or removing the member ends it at once', async () => {
    const project = await okBody(org.call('owner', 'createProject', { body: { name: 'Through a team' } }), 201);
    const t = await team('conduit', ['member']);
    expect(await projectIds('member')).not.toContain(project.id);
    expect(errorBody(await org.call('member', 'getProject', { path: { projectId: project.id } })).error.code).toBe(
      'project_access_denied',
    );

    await grant(project.id, { teamId: t.id, role: 'READ' });
    expect(await projectIds('member')).toContain(project.id);
    const detail = await okBody(org.call('member', 'getProject', { path: { projectId: project.id } }), 200);
    expect(detail).toMatchObject({ id: project.id, actorIsOrgAdmin: false, actorCanManageProject: false });
    expect((await org.call('member', 'listProjectSessions', { path: { projectId: project.id } })).status).toBe(200);

    await okBody(org.call('owner', 'revokeTeamMember', { path: { teamId: t.id, userId: org.userIds.member } }), 200);
    expect(await projectIds('member')).not.toContain(project.id);
    expect((await org.call('member', 'getProject', { path: { projectId: project.id } })).status).toBe(403);

    await okBody(
      org.call('owner', 'addTeamMember', { path: { teamId: t.id }, body: { userId: org.userIds.member } }),
      201,
    );
    expect(await projectIds('member')).toContain(project.id);
    await okBody(org.call('owner', 'archiveTeam', { path: { teamId: t.id } }), 200);
    expect(await projectIds('member')).not.toContain(project.id);
    expect(errorBody(await org.call('member', 'getProject', { path: { projectId: project.id } })).error.code).toBe(
      'project_access_denied',
    );
  });

  it('a member in several granted teams holds the strongest role, and keeps the others when one goes', async () => {
    const project = await okBody(org.call('owner', 'createProject', { body: { name: 'Many ways in' } }), 201);
    const readers = await team('many-readers', ['member']);
    const editors = await team('many-editors', ['member']);
    const managers = await team('many-managers', ['member']);
    await grant(project.id, { teamId: readers.id, role: 'READ' });
    await grant(project.id, { teamId: managers.id, role: 'MANAGE' });
    await grant(project.id, { teamId: editors.id, role: 'EDIT' });
    const viaAll = await okBody(org.call('member', 'getProject', { path: { projectId: project.id } }), 200);
    expect(viaAll).toMatchObject({ id: project.id, actorCanManageProject: true });

    await okBody(org.call('owner', 'archiveTeam', { path: { teamId: managers.id } }), 200);
    const viaTwo = await okBody(org.call('member', 'getProject', { path: { projectId: project.id } }), 200);
    expect(viaTwo.actorCanManageProject).toBe(false);
    const manage = await org.call('member', 'putProjectTeamAccess', {
      path: { projectId: project.id },
      body: { teamId: readers.id, role: 'EDIT' },
    });
    expect(errorBody(manage).error.code).toBe('project_manage_required');
  });

  it('MANAGE through a team lets a member manage team access; org admins without it may not', async () => {
    const project = await okBody(org.call('owner', 'createProject', { body: { name: 'Delegated' } }), 201);
    const managers = await team('managers', ['member']);
    const other = await team('others');
    await grant(project.id, { teamId: managers.id, role: 'MANAGE' });
    const detail = await okBody(org.call('member', 'getProject', { path: { projectId: project.id } }), 200);
    expect(detail.actorCanManageProject).toBe(true);
    await okBody(
      org.call('member', 'putProjectTeamAccess', {
        path: { projectId: project.id },
        body: { teamId: other.id, role: 'READ' },
      }),
      200,
    );

    const admin = await org.call('admin', 'putProjectTeamAccess', {
      path: { projectId: project.id },
      body: { teamId: other.id, role: 'EDIT' },
    });
    expect(admin.status).toBe(403);
    expect(errorBody(admin).error.code).toBe('project_manage_required');
    const adminView = await okBody(org.call('admin', 'getProject', { path: { projectId: project.id } }), 200);
    expect(adminView).toMatchObject({ actorIsOrgAdmin: true, actorCanManageProject: false });
  });

  it('a revoked member loses project access through open sessions on the next request', async () => {
    const added = await okBody(
      org.call('owner', 'addMember', { body: { imOpenId: 'ou_leaving', role: 'MEMBER' } }),
      201,
    );
    await okBody(org.call('owner', 'updateOrgSettings', { body: { membersCanCreateProjects: true } }), 200);
    const cookie = await hub.login('ou_leaving');
    const project = await okBody(
      hub.call('createProject', { path: { orgSlug: 'acme' }, cookie, body: { name: 'Mine' } }),
      201,
    );
    expect((await hub.call('getProject', { path: { orgSlug: 'acme', projectId: project.id }, cookie })).status).toBe(
      200,
    );
    await okBody(org.call('owner', 'revokeMember', { path: { userId: added.userId } }), 200);
    const after = await hub.call('getProject', { path: { orgSlug: 'acme', projectId: project.id }, cookie });
    expect(after.status).toBe(404);
    expect(errorBody(after).error.code).toBe('org_not_found');
    await okBody(org.call('owner', 'updateOrgSettings', { body: { membersCanCreateProjects: false } }), 200);
  });
});
