import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/config/clock.js';
import { readSchemaGraph } from '../../src/db/schema-graph.js';
import { NOT_ORGANIZATION_TABLES, purgePlan } from '../../src/orgs/purge-plan.js';
import { errorBody, expectError, okBody } from '../support/assertions.js';
import { tableNames } from '../support/every-row.js';
import { cliEnv, runHub } from '../support/hub-cli.js';
import { type OrgFixture, seedOrg } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { runLine, writeJsonl } from '../support/usage-runs.js';

/**
 * The organization's life through the real surface: force-release of a project nobody can
 * manage (host console), rename with its redirect, ownership transfers, leaving, deletion with
 * its read-only grace and restore, and the purge that leaves no row or file of it.
 */

let hub: TestHub;
let env: NodeJS.ProcessEnv;
let scratch: string;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

beforeAll(async () => {
  hub = await TestHub.start();
  env = cliEnv(hub.database.dataDir, hub.database.databaseUrl);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-lifecycle-'));
});
afterAll(async () => {
  await hub.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** A fresh organization whose members may create projects. */
async function freshOrg(): Promise<OrgFixture> {
  const org = await seedOrg(hub, unique('org'));
  await okBody(org.call('owner', 'updateOrgSettings', { body: { membersCanCreateProjects: true } }));
  return org;
}

/** Fresh sessions for the organization's people, after the clock moved past their sessions' end. */
async function signInAgain(org: OrgFixture): Promise<void> {
  for (const actor of ['owner', 'admin', 'member'] as const)
    org.cookies[actor] = await hub.login(`${org.slug}-${actor}`);
}

const auditOf = async (org: OrgFixture, actor: 'owner' | 'member' = 'owner') =>
  (await okBody(org.call(actor, 'listAuditEvents', { query: { limit: 100 } }))).events;

describe('force-release: a project nobody can manage gets a manager from the host console', () => {
  it('recovers a project orphaned by revoking its only manager, audited as the platform admin', async () => {
    const org = await freshOrg();
    const webhook = await okBody(
      org.call('owner', 'createWebhook', { body: { url: 'https://93.184.216.34/h', events: ['*'] } }),
      201,
    );
    const project = await okBody(org.call('member', 'createProject', { body: { name: 'Side project' } }), 201);
    const other = await okBody(org.call('owner', 'createProject', { body: { name: 'Owned project' } }), 201);

    // The member held the only MANAGE: revoking them says so, with what to ask an operator.
    const revoked = await okBody(org.call('owner', 'revokeMember', { path: { userId: org.userIds.member } }));
    expect(revoked.unmanagedProjects).toEqual([
      {
        id: project.id,
        name: 'Side project',
        forceReleaseCommand: `hub project force-release ${org.slug} ${project.id} --manager <imOpenId|team-slug>`,
      },
    ]);
    const unmanaged = await okBody(org.call('owner', 'listProjects', { query: { unmanaged: 'true' } }));
    expect(unmanaged.projects.map((p) => p.id)).toEqual([project.id]);
    const all = await okBody(org.call('owner', 'listProjects'));
    expect(all.projects.find((p) => p.id === other.id)).toMatchObject({ managed: true, forceReleaseCommand: null });

    // Org admins get no override.
    const team = await okBody(org.call('owner', 'createTeam', { body: { slug: unique('team'), name: 'Team' } }));
    const teamAccess = { path: { projectId: project.id }, body: { teamSlug: team.slug, role: 'READ' as const } };
    expectError(await org.call('owner', 'putProjectTeamAccess', teamAccess), 403, 'project_manage_required');

    const result = await runHub(
      ['project', 'force-release', org.slug, project.id, '--manager', `${org.slug}-owner`],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      `gave MANAGE on project "Side project" (${project.id}) to member ${org.slug}-owner`,
    );

    await okBody(org.call('owner', 'putProjectTeamAccess', teamAccess));
    expect((await okBody(org.call('owner', 'listProjects', { query: { unmanaged: 'true' } }))).projects).toEqual([]);

    const [event] = (await auditOf(org)).filter((e) => e.action === 'hub.project.force_release');
    expect(event).toMatchObject({
      actor: { type: 'platform', id: null, displayName: 'platform admin' },
      target: { type: 'project_manager', id: project.id, label: 'Side project' },
      changes: { before: { role: null }, after: { manager: `member ${org.slug}-owner`, role: 'MANAGE' } },
      summary: `platform admin gave member ${org.slug}-owner MANAGE on project Side project`,
    });
    // Told to the organization's webhooks like any other change.
    const deliveries = await hub.services
      .db('webhook_deliveries')
      .where({ webhook_id: webhook.id, event: 'hub.project.force_release' })
      .pluck('payload');
    expect(deliveries).toHaveLength(1);
    expect(JSON.parse(deliveries[0] as string)).toMatchObject({ data: { id: event!.id, actor: { type: 'platform' } } });
  });

  it('gives MANAGE to a team by its slug, and refuses a name that is neither', async () => {
    const org = await freshOrg();
    const project = await okBody(org.call('admin', 'createProject', { body: { name: 'Team project' } }), 201);
    const team = await okBody(org.call('owner', 'createTeam', { body: { slug: unique('crew'), name: 'Crew' } }));
    const released = await runHub(['project', 'force-release', org.slug, project.id, '--manager', team.slug], env);
    expect(released.code, released.stderr).toBe(0);
    const access = await okBody(org.call('admin', 'listProjectTeamAccess', { path: { projectId: project.id } }));
    expect(access.access).toEqual([expect.objectContaining({ teamId: team.id, role: 'MANAGE' })]);

    const before = await auditOf(org);
    const refused = await runHub(['project', 'force-release', org.slug, project.id, '--manager', 'nobody-here'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('"nobody-here" is neither the imOpenId of an active member nor the slug');
    const missing = await runHub(['project', 'force-release', org.slug, project.id], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--manager is required');
    expect(await auditOf(org)).toEqual(before);
  });
});

describe('rename', () => {
  it('changes name and slug; the old slug answers 308 to the new path for 30 days, and is held meanwhile', async () => {
    const org = await freshOrg();
    const newSlug = unique('renamed');
    const renamed = await okBody(
      org.call('owner', 'renameOrganization', { body: { name: 'New Name', slug: newSlug } }),
    );
    expect(renamed.organization).toMatchObject({ slug: newSlug, name: 'New Name', status: 'ACTIVE' });

    const moved = await hub.request('GET', `/api/org/${org.slug}/teams?limit=5`, { cookie: org.cookies.admin });
    expect(moved.status).toBe(308);
    expect(moved.headers.get('location')).toBe(`/api/org/${newSlug}/teams?limit=5`);
    const write = await hub.request('POST', `/api/org/${org.slug}/teams`, {
      cookie: org.cookies.admin,
      body: { slug: 'x', name: 'X' },
    });
    expect(write.status).toBe(308);
    // Someone who is not a member learns nothing from the old slug.
    const outsider = await seedOrg(hub, unique('outsider'));
    expectError(
      await hub.request('GET', `/api/org/${org.slug}`, { cookie: outsider.cookies.owner }),
      404,
      'org_not_found',
    );
    // Nobody may take the old slug while it still leads to the organization.
    expectError(await outsider.call('owner', 'renameOrganization', { body: { slug: org.slug } }), 409, 'slug_taken');

    const log = await okBody(hub.orgCall(newSlug, org.cookies.owner, 'listAuditEvents', { query: { limit: 100 } }));
    const [event] = log.events.filter((e) => e.action === 'renameOrganization');
    expect(event).toMatchObject({
      changes: { before: { slug: org.slug, name: expect.any(String) }, after: { slug: newSlug, name: 'New Name' } },
    });

    hub.clock.advance(31 * DAY_MS);
    await signInAgain(org);
    await signInAgain(outsider);
    expectError(await hub.request('GET', `/api/org/${org.slug}`, { cookie: org.cookies.admin }), 404, 'org_not_found');
    await okBody(outsider.call('owner', 'renameOrganization', { body: { slug: org.slug } }));
  });

  it('is for OWNERs; a rename to a taken slug changes nothing', async () => {
    const org = await freshOrg();
    const taken = await freshOrg();
    expectError(await org.call('admin', 'renameOrganization', { body: { name: 'X' } }), 403, 'owner_required');
    expectError(await org.call('owner', 'renameOrganization', { body: { slug: taken.slug } }), 409, 'slug_taken');
    expectError(await org.call('owner', 'renameOrganization', { body: {} }), 400, 'validation_failed');
    expectError(await org.call('owner', 'renameOrganization', { body: { name: '   ' } }), 400, 'validation_failed');
    expect((await okBody(org.call('owner', 'getOrganization'))).organization.slug).toBe(org.slug);
  });
});

describe('ownership transfer', () => {
  it('the recipient accepts: they become OWNER and the OWNER who offered becomes ADMIN', async () => {
    const org = await freshOrg();
    const offer = await okBody(
      org.call('owner', 'createOwnershipTransfer', { body: { toUserId: org.userIds.member } }),
      201,
    );
    expect(offer).toMatchObject({ status: 'pending', to: { userId: org.userIds.member }, decidedAt: null });
    expectError(
      await org.call('owner', 'createOwnershipTransfer', { body: { toUserId: org.userIds.admin } }),
      409,
      'transfer_pending',
    );
    const listed = await okBody(org.call('member', 'listOwnershipTransfers'));
    expect(listed.transfers.map((t) => t.id)).toEqual([offer.id]);
    expectError(
      await org.call('admin', 'acceptOwnershipTransfer', { path: { transferId: offer.id } }),
      403,
      'transfer_not_yours',
    );

    const accepted = await okBody(org.call('member', 'acceptOwnershipTransfer', { path: { transferId: offer.id } }));
    expect(accepted.status).toBe('accepted');
    expect((await okBody(org.call('member', 'getOrganization'))).actorRole).toBe('OWNER');
    expect((await okBody(org.call('owner', 'getOrganization'))).actorRole).toBe('ADMIN');
    expectError(
      await org.call('member', 'acceptOwnershipTransfer', { path: { transferId: offer.id } }),
      409,
      'transfer_not_pending',
    );
    const events = (await auditOf(org, 'member')).map((e) => e.action);
    expect(events).toEqual(expect.arrayContaining(['createOwnershipTransfer', 'acceptOwnershipTransfer']));
  });

  it('an OWNER withdraws it or the recipient declines; nobody else; no role changes', async () => {
    const org = await freshOrg();
    const offer = await okBody(
      org.call('owner', 'createOwnershipTransfer', { body: { toUserId: org.userIds.admin } }),
      201,
    );
    expectError(
      await org.call('member', 'cancelOwnershipTransfer', { path: { transferId: offer.id } }),
      403,
      'transfer_not_yours',
    );
    const declined = await okBody(org.call('admin', 'cancelOwnershipTransfer', { path: { transferId: offer.id } }));
    expect(declined.status).toBe('cancelled');
    expect((await okBody(org.call('admin', 'getOrganization'))).actorRole).toBe('ADMIN');
    expectError(
      await org.call('owner', 'createOwnershipTransfer', { body: { toUserId: org.userIds.owner } }),
      409,
      'already_owner',
    );
    expectError(
      await org.call('owner', 'createOwnershipTransfer', { body: { toUserId: 'no-such-user' } }),
      404,
      'member_not_found',
    );
    expectError(
      await org.call('admin', 'createOwnershipTransfer', { body: { toUserId: org.userIds.member } }),
      403,
      'owner_required',
    );
    expectError(
      await org.call('owner', 'acceptOwnershipTransfer', { path: { transferId: 'no-such-transfer' } }),
      404,
      'transfer_not_found',
    );
  });
});

describe('leave', () => {
  it('any member leaves; the last OWNER cannot', async () => {
    const org = await freshOrg();
    const project = await okBody(org.call('member', 'createProject', { body: { name: 'Mine' } }), 201);
    const left = await okBody(org.call('member', 'leaveOrganization'));
    expect(left).toMatchObject({ revoked: true, userId: org.userIds.member });
    expect(left.unmanagedProjects.map((p) => p.id)).toEqual([project.id]);
    expectError(await org.call('member', 'getOrganization'), 404, 'org_not_found');
    expectError(await org.call('owner', 'leaveOrganization'), 409, 'last_owner');
    const [event] = (await auditOf(org)).filter((e) => e.action === 'leaveOrganization');
    expect(event).toMatchObject({ target: { type: 'member', id: org.userIds.member } });
  });
});

describe('delete and restore', () => {
  it('deleting makes the organization read-only until purgeAt; a restore brings it back', async () => {
    const org = await freshOrg();
    const invitation = await okBody(org.call('owner', 'createInvitation', { body: { role: 'MEMBER' } }), 201);
    expectError(await org.call('admin', 'deleteOrganization'), 403, 'owner_required');
    const deleted = await okBody(org.call('owner', 'deleteOrganization'));
    expect(deleted.organization.status).toBe('DELETING');
    expect(Date.parse(deleted.organization.purgeAt!) - hub.clock.now().getTime()).toBe(30 * DAY_MS);

    // Reads go on; every write but the restore is refused, whoever calls.
    await okBody(org.call('member', 'getOrganization'));
    await okBody(org.call('admin', 'listMembers'));
    const refused = [
      await org.call('admin', 'createTeam', { body: { slug: 't', name: 'T' } }),
      await org.call('owner', 'updateOrgSettings', { body: { membersCanCreateProjects: false } }),
      await org.call('member', 'leaveOrganization'),
      await org.call('owner', 'deleteOrganization'),
      await org.call('owner', 'renameOrganization', { body: { name: 'Again' } }),
    ];
    // Nobody joins it either: its invitation links admit nobody until it is restored.
    const inviteeId = unique('invitee');
    await hub.services.users.ensure(hub.services.db, { imOpenId: inviteeId }, hub.clock.now());
    const token = invitation.url.split('/invite/')[1]!;
    const joined = await hub.call('acceptInvitation', { path: { token }, cookie: await hub.login(inviteeId) });
    expectError(joined, 409, 'organization_deleting');
    for (const res of refused) {
      expectError(res, 409, 'organization_deleting');
      expect(errorBody(res).error.message).toContain(deleted.organization.purgeAt!);
    }
    expectError(await org.call('admin', 'restoreOrganization'), 403, 'owner_required');

    const restored = await okBody(org.call('owner', 'restoreOrganization'));
    expect(restored.organization).toMatchObject({ status: 'ACTIVE', purgeAt: null });
    await okBody(org.call('admin', 'createTeam', { body: { slug: unique('t'), name: 'T' } }));
    expectError(await org.call('owner', 'restoreOrganization'), 409, 'organization_not_deleting');
    const actions = (await auditOf(org)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['deleteOrganization', 'restoreOrganization']));
  });
});

/** Gives the organization a row in as many tables as its operations and the console write. */
async function populate(org: OrgFixture): Promise<void> {
  const call = org.call;
  const team = await okBody(call('owner', 'createTeam', { body: { slug: unique('team'), name: 'Team' } }));
  await okBody(call('owner', 'addTeamMember', { path: { teamId: team.id }, body: { userId: org.userIds.member } }));
  const folder = await okBody(call('owner', 'createFolder', { body: { name: 'Folder' } }));
  const project = await okBody(call('member', 'createProject', { body: { name: 'P', folderId: folder.id } }), 201);
  await okBody(
    call('member', 'putProjectTeamAccess', {
      path: { projectId: project.id },
      body: { teamSlug: team.slug, role: 'EDIT' },
    }),
  );
  await okBody(call('owner', 'createInvitation', { body: { role: 'MEMBER' } }), 201);
  await okBody(call('owner', 'createApiToken', { body: { name: 'tok', scopes: ['org:read'] } }), 201);
  await okBody(call('owner', 'createWebhook', { body: { url: 'https://93.184.216.34/h', events: ['*'] } }), 201);
  await okBody(
    call('owner', 'createBudget', {
      body: { name: 'Spend', scope: { type: 'organization' }, metric: 'costUsd', amount: 1, period: 'month' },
    }),
    201,
  );
  await okBody(call('owner', 'addDomain', { body: { domain: `${unique('d')}.example` } }), 201);
  const shelf = await okBody(call('owner', 'createAgentLibraryFolder', { body: { name: 'Shelf' } }), 201);
  await okBody(
    call('owner', 'putAgentRole', { path: { roleId: 'coder' }, body: { label: 'Coder', libraryFolderId: shelf.id } }),
  );
  await okBody(
    call('owner', 'installAgentSkill', {
      path: { name: 'own-skill' },
      body: { version: '1', files: [{ path: 'SKILL.md', content: '---\nname: own-skill\n---\n' }] },
    }),
  );
  await okBody(call('owner', 'putAgentRoleSkills', { path: { roleId: 'coder' }, body: { skillNames: ['own-skill'] } }));
  await okBody(
    call('owner', 'rotateProviderConnection', {
      path: { providerId: 'anthropic' },
      body: { baseUrl: 'https://api.example.com', authToken: 'sk-x' },
    }),
  );
  await okBody(
    call('owner', 'putCapabilityConnection', {
      path: { capabilityId: 'search' },
      body: { label: 'Search', kind: 'http', endpointUrl: 'https://search.example.com' },
    }),
  );
  await okBody(call('owner', 'updateCapacityPolicy', { body: { limits: { teamCount: 50 } } }));
  await okBody(call('owner', 'createOwnershipTransfer', { body: { toUserId: org.userIds.admin } }), 201);
  await okBody(call('owner', 'renameOrganization', { body: { name: 'Renamed' } }));
  const bound = await runHub(['project', 'bind', org.slug, project.id, unique('chat')], env);
  expect(bound.code, bound.stderr).toBe(0);
  const at = hub.clock.now().toISOString();
  const file = writeJsonl(scratch, `${org.slug}.jsonl`, [
    runLine(project.id, unique('s'), at),
    runLine(project.id, unique('s'), at),
  ]);
  const ingested = await runHub(['usage', 'ingest', file, '--org', org.slug], env);
  expect(ingested.code, ingested.stderr).toBe(0);
  fs.writeFileSync(path.join(hub.database.dataDir, 'workspaces', org.id, project.id, 'notes.txt'), 'work');
}

/** Every row of every table, each as the text of its values, by table. */
async function rowsByTable(): Promise<Map<string, string[]>> {
  const rows = new Map<string, string[]>();
  for (const table of await tableNames(hub)) {
    const all = (await hub.services.db(table).select()) as Array<Record<string, unknown>>;
    rows.set(
      table,
      all
        .map((row) =>
          Object.values(row)
            .map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : String(v)))
            .join('\u0000'),
        )
        .sort(),
    );
  }
  return rows;
}

/**
 * The ids of the organization's rows, found without the purge's own plan: the organization, and
 * every `id` of a row whose `organization_id` is it; a row that names any of them is its.
 */
async function idsOf(organizationId: string): Promise<string[]> {
  const ids = [organizationId];
  for (const table of await tableNames(hub)) {
    const columns = Object.keys(await hub.services.db(table).columnInfo());
    if (!columns.includes('organization_id') || !columns.includes('id')) continue;
    ids.push(...(await hub.services.db(table).where({ organization_id: organizationId }).pluck('id')));
  }
  return ids;
}

/** Every file under the data directory, relative to it. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

describe('the purge', () => {
  it('derives its steps from the schema: every table is purged or named as holding no organization', async () => {
    const plan = purgePlan(await readSchemaGraph(hub.services.db));
    const planned = new Set(plan.map((step) => step.table));
    const unclassified = (await tableNames(hub)).filter(
      (table) => !planned.has(table) && !NOT_ORGANIZATION_TABLES.has(table) && table !== 'sqlite_sequence',
    );
    expect(unclassified).toEqual([]);
    expect(plan.at(-1)).toEqual({ table: 'organizations' });
    for (const [i, step] of plan.entries()) {
      if (step.via) expect(plan.indexOf(step.via.parent), step.table).toBeGreaterThan(i);
    }
  });

  it('after the grace, removes every row and file of the organization and nothing of another', async () => {
    const doomed = await freshOrg();
    const kept = await freshOrg();
    await populate(doomed);
    await populate(kept);
    await okBody(doomed.call('owner', 'deleteOrganization'));

    // Not before purgeAt.
    hub.clock.advance(29 * DAY_MS);
    expect(await hub.services.purge.purgeDue()).toEqual([]);
    hub.clock.advance(2 * DAY_MS);

    const ids = await idsOf(doomed.id);
    expect(ids.length).toBeGreaterThan(30);
    const before = await rowsByTable();
    const filesBefore = filesUnder(hub.database.dataDir);
    expect(filesBefore.some((f) => f.includes(doomed.id))).toBe(true);

    const purged = await hub.services.purge.purgeDue();
    expect(purged.map((p) => p.organization.id)).toEqual([doomed.id]);

    const after = await rowsByTable();
    const names = (row: string) => ids.some((id) => row.includes(id));
    for (const [table, rows] of after) {
      if (table === 'host_audit_events') continue;
      expect(rows.filter(names), table).toEqual([]);
      // Every other row is as it was: the other organization, the people, the host.
      expect(rows, table).toEqual(before.get(table)!.filter((row) => !names(row)));
    }
    expect(filesUnder(hub.database.dataDir).filter((f) => ids.some((id) => f.includes(id)))).toEqual([]);
    expect(filesUnder(hub.database.dataDir).filter((f) => f.includes(kept.id)).length).toBeGreaterThan(0);

    const [record] = await hub.services.db('host_audit_events').where({ target_id: doomed.id });
    expect(record).toMatchObject({ actor_type: 'system', action: 'organization.purge', target_type: 'organization' });
    expect(JSON.parse(record.details).rows.projects).toBe(1);

    // Its members remain people of the host, and the other organization works as before.
    await signInAgain(doomed);
    await signInAgain(kept);
    expectError(await doomed.call('owner', 'getOrganization'), 404, 'org_not_found');
    await okBody(kept.call('owner', 'createTeam', { body: { slug: unique('after'), name: 'After' } }));
  });

  it('hub org purge removes an organization being deleted now, only when confirmed', async () => {
    const org = await freshOrg();
    const refused = await runHub(['org', 'purge', org.slug, '--confirm', org.slug], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('is not being deleted');
    await okBody(org.call('owner', 'deleteOrganization'));
    const unconfirmed = await runHub(['org', 'purge', org.slug, '--confirm', 'other'], env);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('--confirm must repeat');

    const done = await runHub(['org', 'purge', org.slug, '--confirm', org.slug], env);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(new RegExp(`^purged organization ${org.slug} \\(${org.id}\\): \\d+ rows`));
    expect(await hub.services.db('organizations').where({ id: org.id }).first()).toBeUndefined();
    const [record] = await hub.services.db('host_audit_events').where({ target_id: org.id });
    expect(record).toMatchObject({ actor_type: 'console', actor_display_name: 'hub console' });
  });

  it('two purges at once remove the organization once', async () => {
    const org = await freshOrg();
    await okBody(org.call('owner', 'deleteOrganization'));
    hub.clock.advance(31 * DAY_MS);
    const [a, b] = await Promise.all([hub.services.purge.purgeDue(), hub.services.purge.purgeDue()]);
    expect([...a, ...b].map((p) => p.organization.id)).toEqual([org.id]);
    expect(await hub.services.db('host_audit_events').where({ target_id: org.id })).toHaveLength(1);
  });
});
