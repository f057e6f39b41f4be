import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import { GRANT_ROLES, type GrantRole } from '../../src/grants/roles.js';
import { GrantStore } from '../../src/grants/store.js';
import type { AuthenticatedSession } from '../../src/auth/sessions.js';
import type { OrgRole } from '../../src/orgs/store.js';
import { okBody } from '../support/assertions.js';
import { userIdOf } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';

/**
 * For random grant graphs (members with org roles, some revoked; teams, some archived; team
 * memberships, some revoked; team grants and direct grants), `getProjectAccess` lists exactly the
 * members the project guard lets read the project, each at the level the guard finds: the
 * guard's own code decides, through the authorizer the request pipeline calls.
 */

let hub: TestHub;
beforeAll(async () => {
  hub = await TestHub.start();
});
afterAll(() => hub.stop());

const MEMBERS = 6;
const TEAMS = 3;
const role = fc.constantFrom<GrantRole>(...GRANT_ROLES);
const graph = fc.record({
  orgRoles: fc.array(fc.constantFrom<OrgRole>('ADMIN', 'MEMBER', 'MEMBER'), { minLength: MEMBERS, maxLength: MEMBERS }),
  revokedMembers: fc.uniqueArray(fc.nat(MEMBERS - 1), { maxLength: 2 }),
  archivedTeams: fc.uniqueArray(fc.nat(TEAMS - 1), { maxLength: 1 }),
  teamMemberships: fc.uniqueArray(fc.tuple(fc.nat(TEAMS - 1), fc.nat(MEMBERS - 1), fc.boolean()), {
    maxLength: 10,
    selector: ([team, member]) => `${team}:${member}`,
  }),
  teamGrants: fc.uniqueArray(fc.tuple(fc.nat(TEAMS - 1), role), { maxLength: TEAMS, selector: ([team]) => team }),
  directGrants: fc.uniqueArray(fc.tuple(fc.nat(MEMBERS), role), { maxLength: 4, selector: ([member]) => member }),
  projectArchived: fc.boolean(),
  pageSize: fc.integer({ min: 1, max: 5 }),
});
type Graph = typeof graph extends fc.Arbitrary<infer G> ? G : never;

let runs = 0;

/** Builds the graph in an organization of its own; the owner is member `MEMBERS`. */
async function build(g: Graph) {
  const { services } = hub;
  const { db } = services;
  const slug = `prop-${++runs}`;
  const owner = `${slug}-owner`;
  const org = await hub.createOrg(slug, owner);
  const people: string[] = [];
  for (const [i, orgRole] of g.orgRoles.entries()) {
    await hub.addMembership(org.id, `${slug}-m${i}`, orgRole);
    people.push((await userIdOf(hub, `${slug}-m${i}`))!);
  }
  people.push((await userIdOf(hub, owner))!);
  const teams: string[] = [];
  for (let t = 0; t < TEAMS; t++)
    teams.push((await services.teams.create(org.id, { slug: `t${t}`, name: `Team ${t}` })).id);
  for (const [t, m, revoked] of g.teamMemberships) {
    await services.teams.addMember(org.id, teams[t]!, { userId: people[m]! });
    if (revoked) await services.teams.revokeMember(org.id, teams[t]!, people[m]!);
  }
  const project = await services.projects.create(org.id, people[MEMBERS]!, { name: 'Graph' });
  // The creator's grant is one more edge the graph decides on.
  await db('project_grants').where({ project_id: project.id }).delete();
  const grants = new GrantStore();
  const at = hub.clock.now().toISOString();
  for (const [t, r] of g.teamGrants)
    await grants.upsertTeamGrant(db, { organizationId: org.id, projectId: project.id, teamId: teams[t]!, role: r }, at);
  for (const [m, r] of g.directGrants)
    await grants.insertUserGrant(
      db,
      { organizationId: org.id, projectId: project.id, userId: people[m]!, role: r },
      at,
    );
  for (const t of g.archivedTeams) await services.teams.archive(org.id, teams[t]!);
  // Revoked straight in the table, team memberships left as they were: the answer must not lean
  // on revoking a member having ended their team memberships too.
  for (const m of g.revokedMembers)
    await db('memberships').where({ organization_id: org.id, user_id: people[m]! }).update({ revoked_at: at });
  if (g.projectArchived) await db('projects').where({ id: project.id }).update({ archived_at: at });
  await services.orgAccess.invalidate();
  return { slug, owner, projectId: project.id, people };
}

/** What the guard decides for one person: the level they may read the project at, or null. */
async function guardDecision(slug: string, userId: string, projectId: string): Promise<GrantRole | null> {
  const { orgAccess, authorizer, users, db } = hub.services;
  const access = await orgAccess.resolve(userId, slug);
  if (!access) return null;
  const user = (await users.findById(db, userId))!;
  const session = { id: 's', tokenHash: 'h', user, expiresAt: null } satisfies AuthenticatedSession;
  try {
    const decided = await authorizer.checkProject(
      'projectRead',
      { operationId: 'getProject', summary: 'Get a project' },
      access,
      session,
      projectId,
    );
    return decided.grant ?? 'READ';
  } catch (error) {
    if (error instanceof ApiError && error.code === 'project_access_denied') return null;
    throw error;
  }
}

describe('getProjectAccess against the project guard', () => {
  it('lists exactly whom the guard lets in, at the level it finds', async () => {
    await fc.assert(
      fc.asyncProperty(graph, async (g) => {
        const { slug, owner, projectId, people } = await build(g);
        const cookie = await hub.login(owner);
        const listed: Array<{ userId: string; level: GrantRole; via: Array<{ type: string }> }> = [];
        let cursor: string | null = null;
        do {
          const query: { limit: number; cursor?: string } = { limit: g.pageSize, ...(cursor ? { cursor } : {}) };
          const page = await okBody(hub.orgCall(slug, cookie, 'getProjectAccess', { path: { projectId }, query }), 200);
          listed.push(...page.access);
          cursor = page.nextCursor;
        } while (cursor);
        const answered = new Map(listed.map((entry) => [entry.userId, entry.level]));
        expect(answered.size).toBe(listed.length);
        for (const userId of people) {
          expect(answered.get(userId) ?? null, `user ${people.indexOf(userId)}`).toBe(
            await guardDecision(slug, userId, projectId),
          );
        }
        expect([...answered.keys()].every((userId) => people.includes(userId))).toBe(true);
        const ranks = listed.map((entry) => GRANT_ROLES.indexOf(entry.level));
        expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
      }),
      { numRuns: 40 },
    );
  });
});
