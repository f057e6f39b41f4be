// Random sequences of structural changes — teams, members, folders, projects, grants — sent
// as the OWNER, each followed by checks that what every list says agrees with every other
// list. A change may be refused (a 404 or 409 for an archived team, a folder cycle…), but
// never with a 5xx, and a refusal never leaves the structure inconsistent.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorEnvelope } from '../support/api-client.js';
import { expectOk, okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub, type HttpResult } from '../support/test-hub.js';

const RUNS = Math.max(3, Math.round(Number(process.env.FUZZ_RUNS ?? 30) / 5));
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

let hub: TestHub;
let orgCount = 0;

beforeAll(async () => {
  hub = await TestHub.start({ config: { ceilings: { requestRate: 1e9 } } });
});
afterAll(() => hub?.stop());

/** What the sequence has created so far; actions pick among these by index. */
interface Known {
  teams: string[];
  imOpenIds: string[];
  folders: string[];
  projects: string[];
}

type Action = (org: OrgFixture, known: Known, pick: (list: string[]) => string | undefined) => Promise<HttpResult>;

const ROLES = ['READ', 'EDIT', 'MANAGE'] as const;
/** Remembers the id of what a create made; a refused create (a 4xx) adds nothing. */
function remember<T extends { id: string }>(list: string[], res: HttpResult<T | ErrorEnvelope>): void {
  if (res.status !== 201) return;
  expectOk(res, 201);
  list.push(res.body.id);
}

const ACTIONS: Record<string, Action> = {
  createTeam: async (org, known) => {
    const res = await org.call('owner', 'createTeam', {
      body: { slug: `t${known.teams.length}`, name: `Team ${known.teams.length}` },
    });
    remember(known.teams, res);
    return res;
  },
  archiveTeam: (org, known, pick) =>
    org.call('owner', 'archiveTeam', { path: { teamId: pick(known.teams) ?? 'none' } }),
  addMember: async (org, known) => {
    const imOpenId = `${org.slug}-m${known.imOpenIds.length}`;
    const res = await org.call('owner', 'addMember', { body: { imOpenId, role: 'MEMBER' } });
    if (res.status === 201) known.imOpenIds.push(imOpenId);
    return res;
  },
  revokeMember: async (org, known, pick) => {
    const imOpenId = pick(known.imOpenIds);
    const members = await okBody(org.call('owner', 'listMembers'));
    const userId = members.members.find((m) => m.imOpenId === imOpenId)?.userId ?? 'none';
    return org.call('owner', 'revokeMember', { path: { userId } });
  },
  addTeamMember: (org, known, pick) =>
    org.call('owner', 'addTeamMember', {
      path: { teamId: pick(known.teams) ?? 'none' },
      body: { imOpenId: pick(known.imOpenIds) ?? 'nobody' },
    }),
  createFolder: async (org, known, pick) => {
    const parentId = pick([...known.folders, '']) || undefined;
    const res = await org.call('owner', 'createFolder', {
      body: { name: `Folder ${known.folders.length}`, ...(parentId ? { parentId } : {}) },
    });
    remember(known.folders, res);
    return res;
  },
  moveFolder: (org, known, pick) =>
    org.call('owner', 'updateFolder', {
      path: { folderId: pick(known.folders) ?? 'none' },
      body: { parentId: pick([...known.folders, '']) || null },
    }),
  archiveFolder: (org, known, pick) =>
    org.call('owner', 'archiveFolder', { path: { folderId: pick(known.folders) ?? 'none' } }),
  createProject: async (org, known, pick) => {
    const folderId = pick([...known.folders, '']) || undefined;
    const res = await org.call('owner', 'createProject', {
      body: { name: `Project ${known.projects.length}`, ...(folderId ? { folderId } : {}) },
    });
    remember(known.projects, res);
    return res;
  },
  moveProject: (org, known, pick) =>
    org.call('owner', 'moveProject', {
      path: { projectId: pick(known.projects) ?? 'none' },
      body: { folderId: pick([...known.folders, '']) || null },
    }),
  archiveProject: (org, known, pick) =>
    org.call('owner', 'archiveProject', { path: { projectId: pick(known.projects) ?? 'none' } }),
  grantTeam: (org, known, pick) =>
    org.call('owner', 'putProjectTeamAccess', {
      path: { projectId: pick(known.projects) ?? 'none' },
      body: { teamId: pick(known.teams) ?? 'none', role: ROLES[known.projects.length % ROLES.length] ?? 'READ' },
    }),
};

const step = fc.record({ action: fc.constantFrom(...Object.keys(ACTIONS)), choice: fc.nat() });

/** Every list of the organization agrees with the others. */
async function expectConsistent(org: OrgFixture): Promise<void> {
  const explorer = await okBody(org.call('owner', 'getExplorer'));
  const folderIds = new Set(explorer.folders.map((f) => f.id));
  for (const folder of explorer.folders) {
    expect(folder.parentId === null || folderIds.has(folder.parentId), `folder ${folder.id}'s parent is listed`).toBe(
      true,
    );
    expect(folder.projectCount).toBe(explorer.projects.filter((p) => p.folderId === folder.id).length);
    expect(folder.childFolderCount).toBe(explorer.folders.filter((f) => f.parentId === folder.id).length);
  }
  for (const project of explorer.projects)
    expect(project.folderId === null || folderIds.has(project.folderId)).toBe(true);

  const members = (await okBody(org.call('owner', 'listMembers'))).members;
  expect(new Set(members.map((m) => m.userId)).size).toBe(members.length);
  expect(members.some((m) => m.role === 'OWNER')).toBe(true);
  const memberIds = new Set(members.map((m) => m.userId));

  const teams = (await okBody(org.call('owner', 'listTeams'))).teams;
  const teamIds = new Set(teams.map((t) => t.id));
  for (const team of teams) {
    const teamMembers = (await okBody(org.call('owner', 'listTeamMembers', { path: { teamId: team.id } }))).members;
    expect(team.memberCount, `team ${team.slug}'s memberCount`).toBe(teamMembers.length);
    for (const member of teamMembers)
      expect(memberIds.has(member.userId), `team member ${member.imOpenId} is an active member`).toBe(true);
  }
  for (const project of explorer.projects) {
    const access = (await okBody(org.call('owner', 'listProjectTeamAccess', { path: { projectId: project.id } })))
      .access;
    for (const entry of access)
      expect(teamIds.has(entry.teamId), `grant of ${entry.teamSlug} is of an active team`).toBe(true);
  }
}

describe('random sequences of structural changes', () => {
  it('never answer 5xx and leave every list consistent with the others', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 40 }), async (steps) => {
        const org = await seedOrg(hub, `seq-${++orgCount}`);
        const known: Known = { teams: [], imOpenIds: [], folders: [], projects: [] };
        for (const { action, choice } of steps) {
          const pick = (list: string[]) => (list.length === 0 ? undefined : list[choice % list.length]);
          const res = await (ACTIONS[action] as Action)(org, known, pick);
          expect(res.status, `${action}: ${res.text}`).toBeLessThan(500);
        }
        await expectConsistent(org);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});
