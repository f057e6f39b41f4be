import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { expectError, okBody } from '../support/assertions.js';
import { type OrgFixture, seedOrg } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';

/**
 * The growing lists page with `limit` and `cursor`. A cursor names a position in the list's
 * order, so items added or removed between two pages neither repeat an item nor skip one that
 * was there when the walk began.
 */

let hub: TestHub;
let org: OrgFixture;
let teamId: string;
let projectId: string;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${String(++counter).padStart(3, '0')}`;

beforeAll(async () => {
  hub = await TestHub.start({ config: { ceilings: loadConfig({ HUB_CEILING_REQUEST_RATE: '1000000' }).ceilings } });
  org = await seedOrg(hub, 'pages');
  teamId = (await okBody(org.call('owner', 'createTeam', { body: { slug: 'crew', name: 'Crew' } }), 201)).id;
  projectId = (await okBody(org.call('owner', 'createProject', { body: { name: 'Paged' } }), 201)).id;
});
afterAll(() => hub.stop());

interface PagedList {
  name: string;
  /** Adds one item whose sort position is spread over the list (names drawn from `key`). */
  add: (key: string) => Promise<unknown>;
  /** One page: the ids shown and the next cursor. */
  page: (query: { limit?: number; cursor?: string }) => Promise<{ ids: string[]; nextCursor: string | null }>;
}

const member = async (key: string) =>
  okBody(org.call('owner', 'addMember', { body: { imOpenId: `ou-${key}`, displayName: key, role: 'MEMBER' } }), 201);

const lists: PagedList[] = [
  {
    name: 'members',
    add: member,
    page: async (query) => {
      const body = await okBody(org.call('owner', 'listMembers', { query }));
      return { ids: body.members.map((m) => m.userId), nextCursor: body.nextCursor };
    },
  },
  {
    name: 'teams',
    add: (key) => okBody(org.call('owner', 'createTeam', { body: { slug: key.toLowerCase(), name: key } }), 201),
    page: async (query) => {
      const body = await okBody(org.call('owner', 'listTeams', { query }));
      return { ids: body.teams.map((t) => t.id), nextCursor: body.nextCursor };
    },
  },
  {
    name: 'team members',
    add: async (key) => {
      const { userId } = await member(`tm-${key}`);
      return okBody(org.call('owner', 'addTeamMember', { path: { teamId }, body: { userId } }), 201);
    },
    page: async (query) => {
      const body = await okBody(org.call('owner', 'listTeamMembers', { path: { teamId }, query }));
      return { ids: body.members.map((m) => m.userId), nextCursor: body.nextCursor };
    },
  },
  {
    name: 'agent roles',
    add: (key) =>
      okBody(
        org.call('owner', 'putAgentRole', { path: { roleId: key }, body: { label: key, sortOrder: counter % 3 } }),
      ),
    page: async (query) => {
      const body = await okBody(org.call('owner', 'listAgentRoles', { query }));
      return { ids: body.roles.map((r) => r.roleId), nextCursor: body.nextCursor };
    },
  },
  {
    name: 'agent skills',
    add: (key) => {
      const name = key.toLowerCase();
      const files = [{ path: 'SKILL.md', content: `---\nname: ${name}\n---\n` }];
      return okBody(org.call('owner', 'installAgentSkill', { path: { name }, body: { version: '1', files } }));
    },
    page: async (query) => {
      const body = await okBody(org.call('owner', 'listAgentSkills', { query }));
      return { ids: body.skills.map((s) => s.name), nextCursor: body.nextCursor };
    },
  },
  {
    name: 'API tokens',
    add: (key) => okBody(org.call('owner', 'createApiToken', { body: { name: key, scopes: ['org:read'] } }), 201),
    page: async (query) => {
      const body = await okBody(org.call('owner', 'listApiTokens', { query }));
      return { ids: body.tokens.map((t) => t.id), nextCursor: body.nextCursor };
    },
  },
  {
    name: 'project sessions',
    add: async (key) => {
      hub.clock.advance(1000);
      const at = hub.clock.now().toISOString();
      await hub.services.db('agent_sessions').insert({
        id: key,
        organization_id: org.id,
        project_id: projectId,
        provider: 'anthropic',
        role_id: 'default',
        model: 'claude',
        title: key,
        run_count: 0,
        created_at: at,
        updated_at: at,
        archived_at: null,
      });
    },
    page: async (query) => {
      const body = await okBody(org.call('owner', 'listProjectSessions', { path: { projectId }, query }));
      return { ids: body.sessions.map((s) => s.id), nextCursor: body.nextCursor };
    },
  },
];

/** Names that sort all over the list: some before every page boundary, some after. */
const spread = () => `${'ACEGIKMOQSUWY'[counter % 13]}${unique('item')}`;

describe.each(lists)('$name', ({ add, page }) => {
  beforeAll(async () => {
    for (let i = 0; i < 9; i++) await add(spread());
  });

  it('answers the whole list with nextCursor null when no limit is given', async () => {
    const whole = await page({});
    expect(whole.ids.length).toBeGreaterThanOrEqual(9);
    expect(whole.nextCursor).toBeNull();
  });

  it('walks the list in pages, and items added during the walk repeat or hide nothing that was there', async () => {
    const start = await page({});
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const next = await page({ limit: 2, ...(cursor ? { cursor } : {}) });
      expect(next.ids.length).toBeLessThanOrEqual(2);
      seen.push(...next.ids);
      await add(spread());
      cursor = next.nextCursor ?? undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of start.ids) expect(seen).toContain(id);
    const end = await page({});
    const order = (ids: string[]) => ids.filter((id) => end.ids.includes(id));
    expect(order(seen)).toEqual(end.ids.filter((id) => seen.includes(id)));
  });
});

describe('limits and cursors', () => {
  it('refuses a limit outside 1–1000 and a cursor it did not issue', async () => {
    for (const query of ['limit=0', 'limit=1001', 'limit=two', 'cursor=bm9wZQ', 'cursor=%5B1%5D']) {
      expectError(await org.api('owner', 'GET', `/members?${query}`), 400, 'validation_failed');
    }
    expectError(await org.api('owner', 'GET', `/projects/${projectId}/sessions?limit=201`), 400, 'validation_failed');
  });
});
