import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, okBody } from '../support/assertions.js';
import { TestHub } from '../support/test-hub.js';
import { seedOrg, userIdOf, type OrgFixture } from '../support/org-fixture.js';

/** Who can open a project (`getProjectAccess`) and a team's projects (`listTeamProjects`). */

let hub: TestHub;
let org: OrgFixture;
const ids: Record<string, string> = {};

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'acme');
  for (const im of ['ana', 'bo', 'cy', 'dee']) {
    await hub.addMembership(org.id, im, 'MEMBER');
    ids[im] = (await userIdOf(hub, im))!;
  }
});
afterAll(() => hub.stop());

async function team(slug: string, members: string[]) {
  const created = await okBody(org.call('owner', 'createTeam', { body: { slug, name: `Team ${slug}` } }), 201);
  for (const im of members)
    await okBody(org.call('owner', 'addTeamMember', { path: { teamId: created.id }, body: { userId: ids[im] } }), 201);
  return created;
}

const project = async (name: string) => (await okBody(org.call('owner', 'createProject', { body: { name } }), 201)).id;

const access = (projectId: string, actor: 'owner' | 'admin' | 'member' = 'owner') =>
  okBody(org.call(actor, 'getProjectAccess', { path: { projectId } }), 200);

describe('getProjectAccess', () => {
  it('lists every path, the strongest level first, then by name', async () => {
    const projectId = await project('Paths');
    const writers = await team('writers', ['ana', 'bo']);
    const readers = await team('readers', ['bo', 'cy']);
    await okBody(
      org.call('owner', 'putProjectTeamAccess', { path: { projectId }, body: { teamId: writers.id, role: 'EDIT' } }),
    );
    await okBody(
      org.call('owner', 'putProjectTeamAccess', { path: { projectId }, body: { teamId: readers.id, role: 'READ' } }),
    );
    const answer = await access(projectId);
    expect(answer.nextCursor).toBeNull();
    expect(answer.access).toEqual([
      {
        userId: org.userIds.owner,
        imOpenId: 'acme-owner',
        displayName: 'Owner of acme',
        level: 'MANAGE',
        via: [
          { type: 'user', role: 'MANAGE' },
          { type: 'orgAdmin', role: 'OWNER' },
        ],
      },
      {
        userId: ids.ana,
        imOpenId: 'ana',
        displayName: 'ana',
        level: 'EDIT',
        via: [{ type: 'team', role: 'EDIT', teamId: writers.id, teamName: 'Team writers' }],
      },
      {
        userId: ids.bo,
        imOpenId: 'bo',
        displayName: 'bo',
        level: 'EDIT',
        via: [
          { type: 'team', role: 'READ', teamId: readers.id, teamName: 'Team readers' },
          { type: 'team', role: 'EDIT', teamId: writers.id, teamName: 'Team writers' },
        ],
      },
      {
        userId: org.userIds.admin,
        imOpenId: 'acme-admin',
        displayName: 'acme-admin',
        level: 'READ',
        via: [{ type: 'orgAdmin', role: 'ADMIN' }],
      },
      {
        userId: ids.cy,
        imOpenId: 'cy',
        displayName: 'cy',
        level: 'READ',
        via: [{ type: 'team', role: 'READ', teamId: readers.id, teamName: 'Team readers' }],
      },
    ]);
    // A member with a grant reads the same list; one without gets the project read's refusal.
    const seen = await hub.request('GET', `/api/org/acme/projects/${projectId}/access`, {
      cookie: await hub.login('ana'),
    });
    expect(seen.status).toBe(200);
    const refused = await org.call('member', 'getProjectAccess', { path: { projectId } });
    expect(refused.status).toBe(403);
    expect(errorBody(refused).error.code).toBe('project_access_denied');
  });

  it('pages by a cursor without repeating or skipping anyone', async () => {
    const projectId = await project('Paged');
    const everyone = await team('everyone', ['ana', 'bo', 'cy', 'dee']);
    await okBody(
      org.call('owner', 'putProjectTeamAccess', { path: { projectId }, body: { teamId: everyone.id, role: 'READ' } }),
    );
    const whole = (await access(projectId)).access.map((e) => e.userId);
    expect(whole).toHaveLength(6);
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await okBody(
        org.call('owner', 'getProjectAccess', {
          path: { projectId },
          query: { limit: 4, ...(cursor ? { cursor } : {}) },
        }),
        200,
      );
      expect(page.access.length).toBeLessThanOrEqual(4);
      paged.push(...page.access.map((e) => e.userId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(whole);
    for (const query of ['limit=0', 'limit=1001', 'cursor=not-a-cursor']) {
      const res = await org.api('owner', 'GET', `/projects/${projectId}/access?${query}`);
      expect(res.status).toBe(400);
      expect(errorBody(res).error.code).toBe('validation_failed');
    }
  });

  it('answers for an archived project, and leaves out revoked members and archived teams', async () => {
    const projectId = await project('Archived');
    const gone = await team('gone', ['cy']);
    const kept = await team('kept', ['dee', 'ana']);
    await okBody(
      org.call('owner', 'putProjectTeamAccess', { path: { projectId }, body: { teamId: gone.id, role: 'MANAGE' } }),
    );
    await okBody(
      org.call('owner', 'putProjectTeamAccess', { path: { projectId }, body: { teamId: kept.id, role: 'EDIT' } }),
    );
    await okBody(org.call('owner', 'archiveTeam', { path: { teamId: gone.id } }), 200);
    await okBody(org.call('owner', 'archiveProject', { path: { projectId } }), 200);
    const before = (await access(projectId)).access.map((e) => e.imOpenId);
    expect(before).toEqual(['acme-owner', 'ana', 'dee', 'acme-admin']);
    await hub.addMembership(org.id, 'eve', 'MEMBER');
    await okBody(org.call('owner', 'addTeamMember', { path: { teamId: kept.id }, body: { imOpenId: 'eve' } }), 201);
    const eve = (await userIdOf(hub, 'eve'))!;
    expect((await access(projectId)).access.map((e) => e.imOpenId)).toContain('eve');
    await okBody(org.call('owner', 'revokeMember', { path: { userId: eve } }), 200);
    expect((await access(projectId)).access.map((e) => e.imOpenId)).toEqual(before);
  });

  it('answers project_not_found for a project of no one or of another organization', async () => {
    const other = await seedOrg(hub, 'globex');
    const foreign = (await okBody(other.call('owner', 'createProject', { body: { name: 'Theirs' } }), 201)).id;
    for (const projectId of ['no-such-project', foreign]) {
      const res = await org.call('owner', 'getProjectAccess', { path: { projectId } });
      expect(res.status).toBe(404);
      expect(errorBody(res).error.code).toBe('project_not_found');
    }
  });
});

describe('listTeamProjects', () => {
  it("lists the team's grants on live projects by project name, paged", async () => {
    const t = await team('builders', []);
    const names = ['zeta', 'Alpha', 'beta', 'Gone'];
    const made: Record<string, string> = {};
    for (const [i, name] of names.entries()) {
      made[name] = await project(name);
      const role = (['READ', 'EDIT', 'MANAGE', 'READ'] as const)[i]!;
      await okBody(
        org.call('owner', 'putProjectTeamAccess', { path: { projectId: made[name]! }, body: { teamId: t.id, role } }),
      );
    }
    await okBody(org.call('owner', 'archiveProject', { path: { projectId: made.Gone! } }), 200);
    const list = await okBody(org.call('owner', 'listTeamProjects', { path: { teamId: t.id } }), 200);
    expect(list.nextCursor).toBeNull();
    expect(list.projects).toEqual([
      { projectId: made.Alpha, projectName: 'Alpha', folderId: null, role: 'EDIT', grantId: expect.any(String) },
      { projectId: made.beta, projectName: 'beta', folderId: null, role: 'MANAGE', grantId: expect.any(String) },
      { projectId: made.zeta, projectName: 'zeta', folderId: null, role: 'READ', grantId: expect.any(String) },
    ]);
    const first = await okBody(org.call('owner', 'listTeamProjects', { path: { teamId: t.id }, query: { limit: 2 } }));
    expect(first.projects.map((p) => p.projectName)).toEqual(['Alpha', 'beta']);
    const rest = await okBody(
      org.call('owner', 'listTeamProjects', { path: { teamId: t.id }, query: { limit: 2, cursor: first.nextCursor! } }),
    );
    expect(rest).toEqual({ projects: [list.projects[2]], nextCursor: null });
  });

  it('answers team_not_found for an unknown or archived team, and org_admin_required for a member', async () => {
    const t = await team('short-lived', []);
    await okBody(org.call('owner', 'archiveTeam', { path: { teamId: t.id } }), 200);
    for (const teamId of [t.id, 'no-such-team']) {
      const res = await org.call('admin', 'listTeamProjects', { path: { teamId } });
      expect(res.status).toBe(404);
      expect(errorBody(res).error.code).toBe('team_not_found');
    }
    const res = await org.call('member', 'listTeamProjects', { path: { teamId: t.id } });
    expect(res.status).toBe(403);
    expect(errorBody(res).error.code).toBe('org_admin_required');
  });
});
