import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okBody } from '../support/assertions.js';
import { seedOrg, userIdOf, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { runLine, tableRows, writeJsonl } from '../support/usage-runs.js';

/**
 * Who started each run: the ingest resolves `initiatedBy` to the organization's member or API
 * token (refusing, with the line, a name it does not know), stores it on the run and on the
 * session it opens, and the report and the series group by member, API token and team — a team
 * counting its members' runs only while they were in it, to the minute — from the rollups (a
 * whole month) and from the raw runs (a window inside days) alike.
 */

let hub: TestHub;
let org: OrgFixture;
let other: OrgFixture;
let projectId = '';
let tokenId = '';
let foreignTokenId = '';
const ids: Record<string, string> = {};
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'initiators-'));
const ingest = (of: OrgFixture, name: string, lines: Array<Record<string, unknown>>) =>
  hub.services.usage.ingest(of.id, writeJsonl(tmp, name, lines));

const member = (imOpenId: string) => ({ initiatedBy: { type: 'member', imOpenId } });
const run = (at: string, costUsd: number, extra: Record<string, unknown> = {}) =>
  runLine(projectId, `s-${at}`, at, { costUsd, ...extra });

const NOV = { from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z' };
/** From the middle of 5 November to the middle of 19 November: every edge day is read from the raw runs. */
const INSIDE = { from: '2026-11-05T12:30:00Z', to: '2026-11-19T23:30:00Z' };

/** Moves the clock, and signs everyone in again (a session lapses after three days unused). */
async function at(time: string) {
  hub.clock.set(time);
  for (const of of [org, other]) {
    for (const actor of ['owner', 'admin', 'member'] as const)
      of.cookies[actor] = await hub.login(`${of.slug}-${actor}`);
  }
}

beforeAll(async () => {
  hub = await TestHub.start();
  hub.clock.set('2026-11-01T00:00:00.000Z');
  [org, other] = [await seedOrg(hub, 'acme'), await seedOrg(hub, 'globex')];
  await hub.addMembership(org.id, 'acme-dan', 'MEMBER');
  ids.ann = org.userIds.member;
  ids.bob = org.userIds.admin;
  ids.dan = (await userIdOf(hub, 'acme-dan'))!;
  projectId = (await okBody(org.call('owner', 'createProject', { body: { name: 'alpha' } }), 201)).id;
  tokenId = (
    await okBody(org.call('member', 'createApiToken', { body: { name: 'ann bot', scopes: ['usage:read'] } }), 201)
  ).id;
  foreignTokenId = (
    await okBody(other.call('member', 'createApiToken', { body: { name: 'globex bot', scopes: ['org:read'] } }), 201)
  ).id;
  const team = async (slug: string) =>
    (await okBody(org.call('owner', 'createTeam', { body: { slug, name: slug.toUpperCase() } }), 201)).id;
  const join = (teamId: string, userId: string) =>
    okBody(org.call('owner', 'addTeamMember', { path: { teamId }, body: { userId } }), 201);
  ids.blue = await team('blue');
  ids.red = await team('red');
  // Blue from midnight on 1 November: Ann, Bob and Dan.
  for (const user of [ids.ann, ids.bob, ids.dan]) await join(ids.blue, user);
  // Red: Ann from 12:00 on 5 November to midnight on 20 November.
  await at('2026-11-05T12:00:00.000Z');
  await join(ids.red, ids.ann);
  await at('2026-11-20T00:00:00.000Z');
  await okBody(org.call('owner', 'revokeTeamMember', { path: { teamId: ids.red, userId: ids.ann } }));
  await at('2026-11-25T00:00:00.000Z');
  await ingest(org, 'acme.jsonl', [
    run('2026-11-05T10:00:00Z', 1, member('acme-member')),
    run('2026-11-05T13:00:00Z', 2, member('acme-member')),
    run('2026-11-10T09:00:00Z', 4, member('acme-member')),
    run('2026-11-19T23:00:00Z', 8, { initiatedBy: { type: 'apiToken', id: tokenId } }),
    run('2026-11-20T01:00:00Z', 16, member('acme-member')),
    run('2026-11-10T10:00:00Z', 32, member('acme-admin')),
    run('2026-11-10T11:00:00Z', 64),
    run('2026-11-11T12:00:00Z', 128, member('acme-owner')),
    run('2026-11-12T12:00:00Z', 256, member('acme-dan')),
  ]);
  // Dan leaves: his run stays his, and he is a former member (and no longer in blue).
  await okBody(org.call('owner', 'revokeMember', { path: { userId: ids.dan } }));
});
afterAll(async () => {
  await hub.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A report's groups as [key, label, runs, cost]. */
async function reportGroups(groupBy: 'member' | 'team' | 'apiToken', window = NOV) {
  const report = await okBody(org.call('admin', 'getUsageReport', { query: { ...window, groupBy } }));
  expect(report.projects).toEqual([]);
  return { rows: report.groups!.map((g) => [g.key, g.label, g.runCount, g.costUsd]), report };
}

describe('the ingest', () => {
  it('stores each run’s initiator and accountable member, and the session’s opener', async () => {
    const runs = await hub.services.db('runs').where('organization_id', org.id).orderBy('at');
    expect(runs.map((r) => [r.at.slice(0, 13), r.initiator_type, r.initiator_id, r.member_id])).toEqual([
      ['2026-11-05T10', 'member', ids.ann, ids.ann],
      ['2026-11-05T13', 'member', ids.ann, ids.ann],
      ['2026-11-10T09', 'member', ids.ann, ids.ann],
      ['2026-11-10T10', 'member', ids.bob, ids.bob],
      ['2026-11-10T11', null, null, null],
      ['2026-11-11T12', 'member', org.userIds.owner, org.userIds.owner],
      ['2026-11-12T12', 'member', ids.dan, ids.dan],
      ['2026-11-19T23', 'apiToken', tokenId, ids.ann],
      ['2026-11-20T01', 'member', ids.ann, ids.ann],
    ]);
    const session = await hub.services.db('agent_sessions').where('id', 's-2026-11-19T23:00:00Z').first();
    expect([session.initiator_type, session.initiator_id, session.member_id]).toEqual(['apiToken', tokenId, ids.ann]);
  });

  const refusals: Array<[string, Record<string, unknown>, RegExp]> = [
    ['an imOpenId that is no member', member('nobody'), /^line 2: unknown initiator: no member with imOpenId nobody/],
    ['a member of another organization', member('globex-member'), /^line 2: unknown initiator: no member/],
    ['a member who left', member('acme-dan'), /^line 2: unknown initiator: no member with imOpenId acme-dan/],
    [
      'another organization’s API token',
      { initiatedBy: { type: 'apiToken', id: 'x'.repeat(8) } },
      /^line 2: unknown initiator: no API token/,
    ],
    [
      'an unknown service account',
      { initiatedBy: { type: 'serviceAccount', id: 'sa-1' } },
      /^line 2: unknown initiator: no service account sa-1 in this organization/,
    ],
    [
      'a member named by id',
      { initiatedBy: { type: 'member', id: 'u-1' } },
      /^line 2: initiatedBy must have "imOpenId" for a member initiator/,
    ],
    [
      'a token named by imOpenId too',
      { initiatedBy: { type: 'apiToken', id: 't', imOpenId: 'acme-member' } },
      /^line 2: initiatedBy\/imOpenId is not a field of a apiToken initiator/,
    ],
    ['an unknown kind', { initiatedBy: { type: 'robot', id: 'r' } }, /^line 2: initiatedBy\/type must be equal to one/],
  ];
  it.each(refusals)('refuses %s with its line number, and writes nothing', async (_, extra, message) => {
    const before = await tableRows(hub.services.db, 'runs');
    const lines = [run('2026-11-21T10:00:00Z', 1, member('acme-member')), run('2026-11-21T11:00:00Z', 1, extra)];
    await expect(ingest(org, 'refused.jsonl', lines)).rejects.toThrow(message);
    expect(await tableRows(hub.services.db, 'runs')).toEqual(before);
  });

  it('refuses another organization’s token by its id', async () => {
    await expect(
      ingest(org, 'foreign.jsonl', [
        run('2026-11-21T10:00:00Z', 1, { initiatedBy: { type: 'apiToken', id: foreignTokenId } }),
      ]),
    ).rejects.toThrow(`line 1: unknown initiator: no API token ${foreignTokenId} in this organization`);
  });
});

describe.each([
  ['a whole month (the rollups)', NOV],
  ['a window inside days (the raw runs at its edges)', INSIDE],
])('the report over %s', (_, window) => {
  const inside = window === INSIDE;
  it('groupBy=member: each member with their own runs and their tokens’, a leaver as a former member', async () => {
    const { rows, report } = await reportGroups('member', window);
    expect(rows).toEqual(
      [
        ['ids.bob', 'acme-admin', 1, 32],
        ['ids.dan', 'acme-dan (former member)', 1, 256],
        inside ? ['ids.ann', 'acme-member', 3, 14] : ['ids.ann', 'acme-member', 5, 31],
        ['owner', 'Owner of acme', 1, 128],
        [null, 'Unattributed', 1, 64],
      ].map(withIds),
    );
    expect(report.overlapping).toBe(false);
    expect(report.totals.costUsd).toBe(inside ? 494 : 511);
  });

  it('groupBy=team: each team’s members’ runs while they were in it; overlapping', async () => {
    const { rows, report } = await reportGroups('team', window);
    expect(rows).toEqual(
      (inside
        ? [
            ['ids.blue', 'BLUE', 5, 2 + 4 + 8 + 32 + 256],
            ['ids.red', 'RED', 3, 2 + 4 + 8],
            [null, 'Unattributed', 1, 64],
          ]
        : [
            ['ids.blue', 'BLUE', 7, 1 + 2 + 4 + 8 + 16 + 32 + 256],
            ['ids.red', 'RED', 3, 2 + 4 + 8],
            [null, 'Unattributed', 1, 64],
          ]
      ).map(withIds),
    );
    expect(report.overlapping).toBe(true);
    // Each run once: the owner's run is in no team, and the runs in both teams are not counted twice.
    expect(report.totals.runCount).toBe(inside ? 7 : 9);
  });

  it('groupBy=apiToken: the token’s runs, and the rest in one row', async () => {
    const { rows } = await reportGroups('apiToken', window);
    expect(rows).toEqual([
      [tokenId, 'ann bot', 1, 8],
      [null, 'Not through an API token', inside ? 6 : 8, inside ? 2 + 4 + 32 + 64 + 128 + 256 : 503],
    ]);
  });
});

function withIds(row: unknown[]): unknown[] {
  const [key, ...rest] = row;
  if (key === 'owner') return [org.userIds.owner, ...rest];
  return [typeof key === 'string' && key.startsWith('ids.') ? ids[key.slice(4)] : key, ...rest];
}

describe('the series by team', () => {
  it('counts a run for a team from the minute its member joined to the minute they left', async () => {
    const series = await okBody(
      org.call('admin', 'getUsageSeries', {
        query: { from: '2026-11-05T00:00:00Z', to: '2026-11-21T00:00:00Z', groupBy: 'team', bucket: 'day' },
      }),
    );
    expect(series.overlapping).toBe(true);
    const day = (d: string) =>
      series.buckets.find((b) => b.start.startsWith(d))!.groups.map((g) => [g.label, g.costUsd]);
    expect(day('2026-11-05')).toEqual([
      ['BLUE', 3],
      ['RED', 2],
    ]);
    expect(day('2026-11-19')).toEqual([
      ['BLUE', 8],
      ['RED', 8],
    ]);
    expect(day('2026-11-20')).toEqual([['BLUE', 16]]);
  });

  it('by member, the CSV names the unattributed row with an empty key', async () => {
    const res = await org.api(
      'admin',
      'GET',
      `/usage/series?from=${NOV.from}&to=${NOV.to}&groupBy=member&bucket=month&format=csv`,
    );
    expect(res.status).toBe(200);
    expect(res.text).toContain('"2026-11-01T00:00:00.000Z",,"Unattributed",1,100,10,64');
  });
});

describe('GET /usage/mine', () => {
  it('answers a member their own runs, their tokens’ too, per project and per bucket', async () => {
    const mine = await okBody(org.call('member', 'getMyUsage', { query: { ...NOV, bucket: 'month' } }));
    expect(mine.totals).toMatchObject({ runCount: 5, costUsd: 31 });
    expect(mine.projects.map((p) => [p.projectName, p.runCount])).toEqual([['alpha', 5]]);
    expect(mine.series.buckets).toEqual([
      {
        start: '2026-11-01T00:00:00.000Z',
        groups: [expect.objectContaining({ key: projectId, label: 'alpha', runCount: 5, costUsd: 31 })],
      },
    ]);
  });

  it('an admin reads one member’s report and series through memberId, as the member reads theirs', async () => {
    const query = { ...NOV, memberId: ids.ann! };
    const report = await okBody(org.call('admin', 'getUsageReport', { query }));
    expect(report.projects.map((p) => [p.projectName, p.runCount, p.costUsd])).toEqual([['alpha', 5, 31]]);
    const series = await okBody(org.call('admin', 'getUsageSeries', { query: { ...query, bucket: 'month' } }));
    expect(series.buckets[0]!.groups.map((g) => [g.label, g.costUsd])).toEqual([['alpha', 31]]);
    const nobody = await okBody(org.call('admin', 'getUsageReport', { query: { ...NOV, memberId: 'no-such-user' } }));
    expect(nobody.totals.runCount).toBe(0);
  });

  it('answers a member without runs an empty report', async () => {
    const mine = await okBody(other.call('member', 'getMyUsage', { query: NOV }));
    expect(mine.totals.runCount).toBe(0);
    expect(mine.series.buckets).toHaveLength(30);
  });
});

describe('budgets by team, member and API token', () => {
  const budget = (scope: { type: 'team' | 'member' | 'apiToken'; id: string }, amount = 100) =>
    okBody(
      org.call('admin', 'createBudget', {
        body: { name: `${scope.type} ${amount}`, scope, metric: 'costUsd', amount, period: 'month' },
      }),
      201,
    );

  it('measures each scope’s runs in the period: a team’s while its members were in it', async () => {
    const spent = async (scope: Parameters<typeof budget>[0]) => (await budget(scope, 1000)).status.spent;
    expect(await spent({ type: 'team', id: ids.red! })).toBe(14);
    expect(await spent({ type: 'team', id: ids.blue! })).toBe(319);
    expect(await spent({ type: 'member', id: ids.ann! })).toBe(31);
    expect(await spent({ type: 'apiToken', id: tokenId })).toBe(8);
  });

  it('refuses a scope the organization does not have, and stores nothing', async () => {
    const before = await tableRows(hub.services.db, 'budgets');
    for (const [scope, code] of [
      [{ type: 'team', id: 'no-such-team' }, 'team_not_found'],
      [{ type: 'member', id: other.userIds.member }, 'member_not_found'],
      [{ type: 'member', id: ids.dan! }, 'member_not_found'],
      [{ type: 'apiToken', id: foreignTokenId }, 'token_not_found'],
    ] as const) {
      const res = await org.call('admin', 'createBudget', {
        body: { name: 'refused', scope, metric: 'costUsd', amount: 1, period: 'month' },
      });
      expect([res.status, (res.body as { error: { code: string } }).error.code]).toEqual([404, code]);
    }
    expect(await tableRows(hub.services.db, 'budgets')).toEqual(before);
  });

  it('announces every budget a run reaches, each on its own', async () => {
    const [mine, red, token] = [
      await budget({ type: 'member', id: ids.ann! }, 40),
      await budget({ type: 'team', id: ids.red! }, 15),
      await budget({ type: 'apiToken', id: tokenId }, 1000),
    ];
    // Ann's $10 run makes 41 of her 40; red has 14 of its 15 (she had left it), its token nothing new.
    await ingest(org, 'more.jsonl', [run('2026-11-24T10:00:00Z', 10, member('acme-member'))]);
    const alerts = async (id: string) =>
      (await hub.services.db('budget_alerts').where('budget_id', id).orderBy('threshold')).map((a) => a.threshold);
    expect(await alerts(mine.id)).toEqual([50, 80, 100]);
    expect(await alerts(red.id)).toEqual([50, 80]);
    expect(await alerts(token.id)).toEqual([]);
  });
});

describe('a service account as the initiator', () => {
  let initech: OrgFixture;
  let account = '';
  let accountToken = '';
  let memberToken = '';
  let beta = '';
  beforeAll(async () => {
    initech = await seedOrg(hub, 'initech');
    account = (await okBody(initech.call('admin', 'createServiceAccount', { body: { name: 'runtime' } }), 201)).id;
    accountToken = (
      await okBody(
        initech.call('admin', 'createApiToken', {
          body: { name: 'runtime key', scopes: ['org:read'], serviceAccountId: account },
        }),
        201,
      )
    ).id;
    memberToken = (
      await okBody(initech.call('member', 'createApiToken', { body: { name: 'mine', scopes: ['org:read'] } }), 201)
    ).id;
    beta = (await okBody(initech.call('owner', 'createProject', { body: { name: 'beta' } }), 201)).id;
    const line = (at: string, costUsd: number, initiatedBy?: Record<string, string>) =>
      runLine(beta, `sa-${at}`, at, { costUsd, ...(initiatedBy ? { initiatedBy } : {}) });
    await ingest(initech, 'account.jsonl', [
      line('2026-11-05T10:00:00Z', 1, { type: 'serviceAccount', id: account }),
      line('2026-11-05T13:00:00Z', 2, { type: 'apiToken', id: accountToken }),
      line('2026-11-10T09:00:00Z', 4, { type: 'member', imOpenId: 'initech-member' }),
      line('2026-11-10T10:00:00Z', 8, { type: 'apiToken', id: memberToken }),
      line('2026-11-11T10:00:00Z', 16),
    ]);
  });

  it('stores the account, or its token’s owner, as accountable instead of a member', async () => {
    const runs = await hub.services.db('runs').where('organization_id', initech.id).orderBy('at');
    expect(runs.map((r) => [r.initiator_type, r.member_id, r.service_account_id])).toEqual([
      ['serviceAccount', null, account],
      ['apiToken', null, account],
      ['member', initech.userIds.member, null],
      ['apiToken', initech.userIds.member, null],
      [null, null, null],
    ]);
    await expect(
      ingest(org, 'foreign-account.jsonl', [
        run('2026-11-21T12:00:00Z', 1, { initiatedBy: { type: 'serviceAccount', id: account } }),
      ]),
    ).rejects.toThrow(/^line 1: unknown initiator: no service account .+ in this organization/);
    // A service account is named as one, never as a member by its platform id.
    await expect(
      ingest(initech, 'as-member.jsonl', [
        runLine(beta, 's-x', '2026-11-21T12:00:00Z', {
          initiatedBy: { type: 'member', imOpenId: `service-account:${account}` },
        }),
      ]),
    ).rejects.toThrow(/^line 1: unknown initiator: no member/);
  });

  const groups = async (groupBy: 'member' | 'serviceAccount', window: { from: string; to: string }) => {
    const report = await okBody(initech.call('admin', 'getUsageReport', { query: { ...window, groupBy } }));
    return report.groups!.map((g) => [g.key, g.label, g.runCount, g.costUsd]);
  };

  it.each([
    ['a whole month', NOV],
    ['a window inside days', { from: '2026-11-05T12:00:00Z', to: '2026-11-11T09:00:00Z' }],
  ])(
    'groupBy=serviceAccount over %s: its own runs and its tokens’, members’ runs in the other row',
    async (_, window) => {
      const whole = window === NOV;
      expect(await groups('serviceAccount', window)).toEqual([
        [account, 'runtime', whole ? 2 : 1, whole ? 3 : 2],
        [null, 'Not by a service account', whole ? 3 : 2, whole ? 28 : 12],
      ]);
      // By member, the account's runs are nobody's.
      expect(await groups('member', window)).toEqual([
        [initech.userIds.member, 'initech-member', 2, 12],
        [null, 'Unattributed', whole ? 3 : 1, whole ? 19 : 2],
      ]);
    },
  );

  it('groupBy=serviceAccount in the series and its CSV; a deleted account is labelled so', async () => {
    const query = { ...NOV, groupBy: 'serviceAccount' as const, bucket: 'month' as const };
    const series = await okBody(initech.call('admin', 'getUsageSeries', { query }));
    expect(series.buckets[0]!.groups.map((g) => [g.key, g.label, g.costUsd])).toEqual([
      [null, 'Not by a service account', 28],
      [account, 'runtime', 3],
    ]);
    const csv = await initech.api(
      'admin',
      'GET',
      `/usage/series?from=${NOV.from}&to=${NOV.to}&groupBy=serviceAccount&bucket=month&format=csv`,
    );
    expect(csv.status).toBe(200);
    expect(csv.text).toContain(`"2026-11-01T00:00:00.000Z","${account}","runtime",2,`);
    const budget = await okBody(
      initech.call('admin', 'createBudget', {
        body: {
          name: 'runtime',
          scope: { type: 'serviceAccount', id: account },
          metric: 'costUsd',
          amount: 100,
          period: 'month',
        },
      }),
      201,
    );
    expect(budget.status.spent).toBe(3);
    await okBody(initech.call('admin', 'deleteServiceAccount', { path: { serviceAccountId: account } }), 204);
    expect(await groups('serviceAccount', NOV)).toContainEqual([account, 'runtime (deleted)', 2, 3]);
    const res = await initech.call('admin', 'createBudget', {
      body: {
        name: 'gone',
        scope: { type: 'serviceAccount', id: account },
        metric: 'costUsd',
        amount: 1,
        period: 'month',
      },
    });
    expect([res.status, (res.body as { error: { code: string } }).error.code]).toEqual([
      404,
      'service_account_not_found',
    ]);
  });
});

describe('per-member allowances', () => {
  const perMember = (
    name: string,
    scope: { type: 'organization' | 'folder' | 'team'; id?: string },
    amount: number,
    thresholds = [25, 100],
  ) =>
    okBody(
      org.call('admin', 'createBudget', {
        body: { name, scope, perMember: true, metric: 'costUsd', amount, period: 'month', thresholds },
      }),
      201,
    );
  const thresholdEvents = async (budgetId: string) =>
    (
      await hub.services
        .db('audit_events')
        .where({ organization_id: org.id, action: 'budget.threshold', target_id: budgetId })
        .orderBy('seq')
    ).map((e) => JSON.parse(e.changes).after);

  it('measures each member on their own, and lists those at a threshold, most spent first, paged', async () => {
    // In November: Dan 256 (left), the owner 128, Ann 41 (with her token's run), Bob 32; 64 unattributed.
    const budget = await perMember('each of us', { type: 'organization' }, 100);
    expect(budget.perMember).toBe(true);
    expect(budget.status).toMatchObject({ spent: 256, percent: 256, state: 'exceeded', membersReached: 4 });
    const first = await okBody(
      org.call('admin', 'listBudgetMembers', { path: { budgetId: budget.id }, query: { limit: 2 } }),
    );
    expect(first.members.map((m) => [m.userId, m.displayName, m.spent, m.state])).toEqual([
      [ids.dan, 'acme-dan (former member)', 256, 'exceeded'],
      [org.userIds.owner, 'Owner of acme', 128, 'exceeded'],
    ]);
    const second = await okBody(
      org.call('admin', 'listBudgetMembers', {
        path: { budgetId: budget.id },
        query: { limit: 2, cursor: first.nextCursor! },
      }),
    );
    expect(second.members.map((m) => [m.userId, m.spent, m.percent, m.state])).toEqual([
      [ids.ann, 41, 41, 'warning'],
      [ids.bob, 32, 32, 'warning'],
    ]);
    expect(second.nextCursor).toBeNull();
    // A team's allowance counts each member's runs while they were in it: Ann's 14 in red.
    const red = await perMember('red each', { type: 'team', id: ids.red! }, 10);
    expect(red.status).toMatchObject({ spent: 14, state: 'exceeded', membersReached: 1 });
    const blue = await okBody(
      org.call('admin', 'listBudgetMembers', {
        path: { budgetId: (await perMember('blue each', { type: 'team', id: ids.blue! }, 40, [100])).id },
      }),
    );
    expect(blue.members.map((m) => [m.userId, m.spent])).toEqual([
      [ids.dan, 256],
      [ids.ann, 41],
    ]);
    // A shared budget lists no one.
    const shared = await okBody(
      org.call('admin', 'createBudget', {
        body: { name: 'pool', scope: { type: 'organization' }, metric: 'costUsd', amount: 1, period: 'month' },
      }),
      201,
    );
    expect(shared.perMember).toBe(false);
    expect(shared.status.membersReached).toBeUndefined();
    const none = await okBody(org.call('admin', 'listBudgetMembers', { path: { budgetId: shared.id } }));
    expect(none).toEqual({ members: [], nextCursor: null });
    const missing = await org.call('admin', 'listBudgetMembers', { path: { budgetId: 'nope' } });
    expect([missing.status, (missing.body as { error: { code: string } }).error.code]).toEqual([
      404,
      'budget_not_found',
    ]);
  });

  it('refuses an allowance per member on a scope without members, and stores nothing', async () => {
    const before = await tableRows(hub.services.db, 'budgets');
    const create = (scope: { type: 'project' | 'member' | 'apiToken'; id: string }) =>
      org.call('admin', 'createBudget', {
        body: { name: 'refused', scope, perMember: true, metric: 'costUsd', amount: 1, period: 'month' },
      });
    for (const scope of [
      { type: 'project', id: projectId },
      { type: 'member', id: ids.ann! },
      { type: 'apiToken', id: tokenId },
    ] as const) {
      const res = await create(scope);
      expect(res.status).toBe(400);
      expect((res.body as { error: { details: Array<{ path: string }> } }).error.details[0]!.path).toBe(
        '/body/perMember',
      );
    }
    const org100 = await perMember('to change', { type: 'organization' }, 100);
    const after = await tableRows(hub.services.db, 'budgets');
    const moved = await org.call('admin', 'updateBudget', {
      path: { budgetId: org100.id },
      body: { scope: { type: 'project', id: projectId } },
    });
    expect(moved.status).toBe(400);
    expect(await tableRows(hub.services.db, 'budgets')).toEqual(after);
    expect(after.length).toBe(before.length + 1);
    // Turning it off makes the same move valid.
    const shared = await okBody(
      org.call('admin', 'updateBudget', {
        path: { budgetId: org100.id },
        body: { perMember: false, scope: { type: 'project', id: projectId } },
      }),
    );
    expect([shared.perMember, shared.scope.type]).toEqual([false, 'project']);
  });

  it('announces a threshold once per member and period, naming them, each budget on its own', async () => {
    const everyone = await perMember('everyone', { type: 'organization' }, 50, [50, 100]);
    const blue = await perMember('blue', { type: 'team', id: ids.blue! }, 50, [50, 100]);
    // Bob's $20 run takes him to 52: both thresholds of both budgets; the others reached theirs already.
    await ingest(org, 'bob.jsonl', [run('2026-11-25T10:00:00Z', 20, member('acme-admin'))]);
    const named = (events: Array<Record<string, unknown>>) =>
      events.map((e) => [(e.member as { displayName: string }).displayName, e.threshold, e.spent]);
    const everyoneEvents = [
      ['acme-dan (former member)', 50, 256],
      ['acme-dan (former member)', 100, 256],
      ['Owner of acme', 50, 128],
      ['Owner of acme', 100, 128],
      ['acme-admin', 50, 52],
      ['acme-admin', 100, 52],
      ['acme-member', 50, 41],
    ];
    expect(named(await thresholdEvents(everyone.id))).toEqual(everyoneEvents);
    const blueEvents = [
      ['acme-dan (former member)', 50, 256],
      ['acme-dan (former member)', 100, 256],
      ['acme-admin', 50, 52],
      ['acme-admin', 100, 52],
      ['acme-member', 50, 41],
    ];
    expect(named(await thresholdEvents(blue.id))).toEqual(blueEvents);
    // More runs in the period announce nothing already announced; Ann's 10 more reach her 100 %.
    await ingest(org, 'ann.jsonl', [run('2026-11-26T10:00:00Z', 10, member('acme-member'))]);
    expect(named(await thresholdEvents(everyone.id))).toEqual([...everyoneEvents, ['acme-member', 100, 51]]);
    expect(named(await thresholdEvents(blue.id))).toEqual([...blueEvents, ['acme-member', 100, 51]]);
    const [event] = await thresholdEvents(everyone.id);
    expect(event).toMatchObject({ budgetId: everyone.id, amount: 50, periodStart: '2026-11-01T00:00:00.000Z' });
    expect(event!.member).toEqual({ userId: ids.dan, displayName: 'acme-dan (former member)' });
    // A new period starts afresh, member by member.
    await at('2026-12-02T00:00:00.000Z');
    await ingest(org, 'december.jsonl', [run('2026-12-01T10:00:00Z', 30, member('acme-admin'))]);
    const december = (await thresholdEvents(everyone.id)).filter((e) => e.periodStart === '2026-12-01T00:00:00.000Z');
    expect(named(december)).toEqual([['acme-admin', 50, 30]]);
    const listed = await okBody(org.call('owner', 'listAuditEvents', { query: { action: 'budget.threshold' } }));
    expect(listed.events.map((e) => e.summary)).toEqual(
      expect.arrayContaining([
        'system: budget blue reached 50 % for acme-admin',
        'system: budget everyone reached 50 % for acme-admin',
      ]),
    );
  });
});
