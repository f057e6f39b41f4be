import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schema } from '../support/api-client.js';
import { expectError, okBody } from '../support/assertions.js';
import { seedOrg, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';

/**
 * The readable audit log: each event keeps its target's name as it was when the event
 * was written, reads as one sentence, and a filtered window exports as NDJSON — every matching
 * event, one per line, under the same filters and authorization as the pages.
 */

type AuditEvent = Schema<'AuditEvent'>;

let hub: TestHub;
let org: OrgFixture;
const OWNER = 'Owner of readable';

beforeAll(async () => {
  hub = await TestHub.start({ config: { outboundAllowPrivate: true } });
  org = await seedOrg(hub, 'readable');
});
afterAll(() => hub.stop());

const events = async (query: Record<string, string> = {}): Promise<AuditEvent[]> =>
  (await okBody(org.call('owner', 'listAuditEvents', { query: { limit: 1000, ...query } }), 200)).events;
const lastOf = async (action: string) => (await events({ action }))[0]!;

describe('target labels and sentences', () => {
  it("names the member and both roles; a revoked member's events still read with their name", async () => {
    const added = await okBody(
      org.call('owner', 'addMember', { body: { imOpenId: 'eli', displayName: 'Eli', role: 'MEMBER' } }),
      201,
    );
    await okBody(org.call('owner', 'updateMemberRole', { path: { userId: added.userId }, body: { role: 'ADMIN' } }));
    await org.call('owner', 'revokeMember', { path: { userId: added.userId } });

    const changed = await lastOf('updateMemberRole');
    expect(changed.target).toEqual({ type: 'member', id: added.userId, label: 'Eli' });
    expect(changed.summary).toBe(`${OWNER} changed Eli's role from MEMBER to ADMIN`);
    expect((await lastOf('addMember')).summary).toBe(`${OWNER} added Eli as MEMBER`);
    expect((await lastOf('revokeMember')).summary).toBe(`${OWNER} removed member Eli`);
  });

  it('keeps the name a target had when each event was written, through a rename and an archive', async () => {
    const team = await okBody(org.call('owner', 'createTeam', { body: { slug: 'platform', name: 'Platform' } }), 201);
    await okBody(org.call('owner', 'updateTeam', { path: { teamId: team.id }, body: { name: 'Core' } }));
    await org.call('owner', 'archiveTeam', { path: { teamId: team.id } });

    const [archived, renamed, created] = await events({ targetType: 'team', targetId: team.id });
    expect(created).toMatchObject({ target: { label: 'Platform' }, summary: `${OWNER} created team Platform` });
    expect(renamed).toMatchObject({ target: { label: 'Core' }, summary: `${OWNER} renamed team Platform to Core` });
    expect(archived).toMatchObject({ target: { label: 'Core' }, summary: `${OWNER} archived team Core` });
  });

  it("names a team membership and a team's grant by both their parts", async () => {
    const team = await okBody(org.call('owner', 'createTeam', { body: { slug: 'design', name: 'Design' } }), 201);
    await okBody(
      org.call('owner', 'addTeamMember', { path: { teamId: team.id }, body: { userId: org.userIds.admin } }),
    );
    expect((await lastOf('addTeamMember')).summary).toBe(`${OWNER} added team member readable-admin in Design`);

    const project = await okBody(org.call('owner', 'createProject', { body: { name: 'Apollo' } }), 201);
    await okBody(
      org.call('owner', 'putProjectTeamAccess', {
        path: { projectId: project.id },
        body: { teamId: team.id, role: 'EDIT' },
      }),
    );
    const grant = await lastOf('putProjectTeamAccess');
    expect(grant.target.label).toBe('Design in Apollo');
    expect(grant.summary).toBe(`${OWNER} gave Design in Apollo the role EDIT`);
  });

  it("names a webhook by its receiver's host alone: the rest of its URL may hold a secret", async () => {
    await okBody(
      org.call('owner', 'createWebhook', {
        body: { url: 'http://localhost:9/hook?key=CANARY-secret', events: ['*'], description: 'tests' },
      }),
      201,
    );
    const event = await lastOf('createWebhook');
    expect(event.target.label).toBe('localhost:9');
    expect(event.summary).toBe(`${OWNER} added a webhook to localhost:9`);
  });

  it('names the capacity dimensions a policy change moved', async () => {
    await okBody(org.call('owner', 'updateCapacityPolicy', { body: { limits: { memberCount: 50 } } }));
    const event = await lastOf('updateCapacityPolicy');
    expect(event.target.label).toBeNull();
    expect(event.summary).toBe(`${OWNER} changed the capacity limits (memberCount)`);
  });

  it('answers label null for events written before labels were kept, and still a sentence', async () => {
    const id = randomUUID();
    await hub.services.db('audit_events').insert({
      id,
      organization_id: org.id,
      at: hub.clock.now().toISOString(),
      actor_type: 'user',
      actor_id: org.userIds.owner,
      actor_display_name: OWNER,
      action: 'updateMemberRole',
      target_type: 'member',
      target_id: org.userIds.member,
      request_id: null,
      changes: JSON.stringify({ before: { role: 'MEMBER' }, after: { role: 'ADMIN' } }),
    });
    const old = (await events({ targetId: org.userIds.member })).find((event) => event.id === id)!;
    expect(old.target).toEqual({ type: 'member', id: org.userIds.member, label: null });
    expect(old.summary).toBe(`${OWNER} changed a member's role from MEMBER to ADMIN`);
  });
});

describe('the NDJSON export', () => {
  const exportOf = (query: string, headers: Record<string, string> = {}, actor: 'owner' | 'member' = 'owner') =>
    hub.request('GET', `/api/org/${org.slug}/audit-events${query}`, { cookie: org.cookies[actor], headers });
  const lines = (text: string) =>
    text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as AuditEvent);

  it('streams every matching event, past the pages the store is read in, newest first', async () => {
    // More events than one page of the export's reads: written straight into the store.
    const rows = Array.from({ length: 1203 }, (_, i) => ({
      id: randomUUID(),
      organization_id: org.id,
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      actor_type: 'console',
      actor_id: null,
      actor_display_name: 'hub console',
      action: 'hub.usage.ingest',
      target_type: 'usage',
      target_id: null,
      target_label: null,
      request_id: null,
      changes: JSON.stringify({ before: null, after: { runs: i } }),
    }));
    for (let i = 0; i < rows.length; i += 200) await hub.services.db('audit_events').insert(rows.slice(i, i + 200));

    const res = await exportOf('?action=hub.usage.ingest&format=ndjson&limit=5');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(res.text.endsWith('\n')).toBe(true);
    const exported = lines(res.text);
    expect(exported).toHaveLength(1203);
    expect(exported[0]!.summary).toBe('hub console loaded 1202 agent runs');
    expect(exported.at(-1)!.changes.after).toEqual({ runs: 0 });
    expect(new Set(exported.map((event) => event.id)).size).toBe(1203);
  });

  it('answers by Accept as by format, with the same filters as the pages', async () => {
    const filters = { from: '2026-01-01T00:10:00Z', to: '2026-01-01T00:11:00Z', action: 'hub.usage.ingest' };
    const window = `?${new URLSearchParams(filters)}`;
    const byAccept = await exportOf(window, { accept: 'application/x-ndjson' });
    expect(byAccept.status, byAccept.text).toBe(200);
    const paged = await events(filters);
    expect(paged).toHaveLength(60);
    expect(lines(byAccept.text)).toEqual(paged);

    const none = await exportOf('?action=noSuchAction&format=ndjson');
    expect(none.status).toBe(200);
    expect(none.text).toBe('');
  });

  it('is for org admins, and refuses bad filters as the pages do', async () => {
    const refused = await exportOf('?format=ndjson', {}, 'member');
    expect(refused.status, refused.text).toBe(403);
    const anonymous = await hub.request('GET', `/api/org/${org.slug}/audit-events?format=ndjson`);
    expect(anonymous.status).toBe(401);
    expectError(await exportOf('?format=csv'), 400, 'validation_failed');
    expectError(await exportOf('?format=ndjson&from=yesterday'), 400, 'validation_failed');
  });
});
