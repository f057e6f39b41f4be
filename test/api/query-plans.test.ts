import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, okBody } from '../support/assertions.js';
import type { OrgCallArgs, OrgOperationId } from '../support/api-client.js';
import { fullScans, statementsOf } from '../support/full-scans.js';
import { TestHub } from '../support/test-hub.js';
import { seedActors } from '../support/actors.js';

// What a change looks for inside one organization (a folder's children and content, a member's
// teams) is searched for by index among that organization's rows: a statement that reads a whole
// table costs every change the rows of every organization in the database. SQLite's plans show a
// whole index read as such; on PostgreSQL the check is that some index serves each statement.

let hub: TestHub;
let owner: string | undefined;
let otherOrgOwner: string | undefined;

beforeAll(async () => {
  hub = await TestHub.start();
  ({ owner, otherOrgOwner } = await seedActors(hub));
});
afterAll(() => hub.stop());

const call = <O extends OrgOperationId>(operationId: O, ...input: OrgCallArgs<O>) =>
  hub.orgCall('acme', owner, operationId, ...input);
const callGlobex = <O extends OrgOperationId>(operationId: O, ...input: OrgCallArgs<O>) =>
  hub.orgCall('globex', otherOrgOwner, operationId, ...input);

/** Each full scan as `plan line ← statement`, for a failure that says where to look. */
const described = async (work: () => Promise<unknown>) =>
  (await fullScans(hub, await statementsOf(hub, work))).map(({ line, sql }) => `${line} ← ${sql}`);

describe('query plans of the changes that look inside an organization', () => {
  it('archiving a folder searches its children and its projects by index', async () => {
    const parent = await okBody(call('createFolder', { body: { name: 'Plan parent' } }), 201);
    await okBody(call('createFolder', { body: { name: 'Plan child', parentId: parent.id } }), 201);
    const holder = await okBody(call('createFolder', { body: { name: 'Plan holder' } }), 201);
    await okBody(call('createProject', { body: { name: 'Plan project', folderId: holder.id } }), 201);
    const empty = await okBody(call('createFolder', { body: { name: 'Plan empty' } }), 201);

    const scans = await described(async () => {
      expectError(await call('archiveFolder', { path: { folderId: parent.id } }), 409, 'folder_not_empty');
      expectError(await call('archiveFolder', { path: { folderId: holder.id } }), 409, 'folder_not_empty');
      await okBody(call('archiveFolder', { path: { folderId: empty.id } }));
    });
    expect(scans).toEqual([]);
  });

  it('archiving an agent library folder searches its children, roles and skills by index', async () => {
    const parent = await okBody(call('createAgentLibraryFolder', { body: { name: 'Plan library' } }), 201);
    const child = await okBody(
      call('createAgentLibraryFolder', { body: { name: 'Plan library child', parentId: parent.id } }),
      201,
    );
    const scans = await described(async () => {
      expectError(await call('archiveAgentLibraryFolder', { path: { folderId: parent.id } }), 409, 'folder_not_empty');
      await okBody(call('archiveAgentLibraryFolder', { path: { folderId: child.id } }));
    });
    expect(scans).toEqual([]);
  });

  it('revoking a member ends their team memberships in the organization, found from their own rows', async () => {
    const member = await okBody(call('addMember', { body: { imOpenId: 'plan-member', role: 'MEMBER' } }), 201);
    const team = await okBody(call('createTeam', { body: { slug: 'plan-team', name: 'Plan team' } }), 201);
    await okBody(call('addTeamMember', { path: { teamId: team.id }, body: { userId: member.userId } }), 201);
    // The same person in a team of another organization, which the revocation leaves alone.
    await okBody(callGlobex('addMember', { body: { imOpenId: 'plan-member', role: 'MEMBER' } }), 201);
    const otherTeam = await okBody(callGlobex('createTeam', { body: { slug: 'plan-team', name: 'Plan team' } }), 201);
    await okBody(callGlobex('addTeamMember', { path: { teamId: otherTeam.id }, body: { userId: member.userId } }), 201);

    const scans = await described(() => okBody(call('revokeMember', { path: { userId: member.userId } })));
    expect(scans).toEqual([]);
    const members = await okBody(call('listTeamMembers', { path: { teamId: team.id } }));
    expect(members.members.map((m) => m.userId)).not.toContain(member.userId);
    const otherMembers = await okBody(callGlobex('listTeamMembers', { path: { teamId: otherTeam.id } }));
    expect(otherMembers.members.map((m) => m.userId)).toContain(member.userId);
  });
});
