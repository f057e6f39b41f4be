import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberSpendsIn, spendIn, teamSpendIn } from '../../src/budgets/spend.js';
import { FolderTreeStore } from '../../src/folder-tree/store.js';
import { costMicros } from '../../src/usage/cost-micros.js';
import { UsageStore } from '../../src/usage/store.js';
import { TeamSums } from '../../src/usage/team-sums.js';
import { okBody } from '../support/assertions.js';
import { cliEnv, runHub } from '../support/hub-cli.js';
import { seedOrg, userIdOf, type OrgFixture } from '../support/org-fixture.js';
import { TestHub } from '../support/test-hub.js';
import { runLine, writeJsonl } from '../support/usage-runs.js';

/**
 * The rollups, every level of them, answer exactly what summing the raw runs answers: random runs
 * over two months and a few days, with random initiators (nobody, members, a member who leaves, an
 * API token, a service account and its token), ingested in several files (so the rollups are added
 * to), against random windows (whole months, whole days and edges inside a day), folders and
 * projects, grouped by every key including member, token, service account and team (over a
 * history of joins and leaves inside days and at midnight), with budget spend per member, team,
 * token and service account and per-member allowances over the organization, a folder and each
 * team; and `hub usage rebuild-rollups` repairs them.
 */

let hub: TestHub;
let org: OrgFixture;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rollups-'));
const ids: Record<string, string> = {};
/** Projects under each folder filter (the folder's subtree). */
const under: Record<string, string[]> = {};

interface Fact {
  kind: 'model' | 'tool' | 'capability';
  capabilityId?: string;
  quantity: number;
  unit: string;
  costUsd: number | null;
}
interface Run {
  /** The accountable member's user id, the API token and the accountable service account, if any. */
  memberId: string | null;
  tokenId: string | null;
  accountId: string | null;
  projectId: string;
  sessionId: string;
  provider: string;
  roleId: string;
  model: string;
  at: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  facts: Fact[];
  initiatedBy: Record<string, string> | undefined;
}
const runs: Run[] = [];

// From the last days of January to the first of April: February and March are whole months.
const DAY0 = Date.parse('2026-01-30T00:00:00.000Z');
const DAYS = 66;
const HOUR = 3_600_000;

/** A cost with more digits than a micro-dollar, or none. */
const cost = fc.option(
  fc.integer({ min: 0, max: 5_000_000_000 }).map((n) => n / 1e9),
  { freq: 4 },
);
const fact = fc.oneof(
  fc.record({
    kind: fc.constant('model' as const),
    quantity: fc.nat(5000),
    unit: fc.constant('tokens'),
    costUsd: cost,
  }),
  fc.record({ kind: fc.constant('tool' as const), quantity: fc.nat(20), unit: fc.constant('calls'), costUsd: cost }),
  fc.record({
    kind: fc.constant('capability' as const),
    capabilityId: fc.constantFrom('search', 'mail'),
    quantity: fc.nat(20),
    unit: fc.constant('calls'),
    costUsd: cost,
  }),
);
const runOf = (projects: string[]) =>
  fc.record({
    projectId: fc.constantFrom(...projects),
    session: fc.integer({ min: 0, max: 5 }),
    // A session's runs switch model, provider and role between them.
    provider: fc.constantFrom('anthropic', 'openai'),
    roleId: fc.constantFrom('coder', 'reviewer', 'planner'),
    model: fc.constantFrom('model-0', 'model-1', 'model-2'),
    at: fc.integer({ min: 0, max: DAYS * 24 * HOUR - 1 }).map((ms) => new Date(DAY0 + ms).toISOString()),
    inputTokens: fc.nat(10_000),
    outputTokens: fc.nat(1000),
    costUsd: cost,
    facts: fc.array(fact, { maxLength: 3 }),
    // Nobody, one of four members (one leaves after the ingests), a member's API token, a service
    // account or the account's token.
    initiator: fc.constantFrom(
      null,
      'acme-owner',
      'acme-admin',
      'acme-member',
      'acme-leaver',
      'token',
      'account',
      'account-token',
    ),
  });

/**
 * Team memberships over the window, as [team, member, joined, left]: joins and leaves at midnight
 * and inside days, a member leaving and rejoining, one still in the team.
 */
const MEMBERSHIPS: Array<[string, string, string, string | null]> = [
  ['red', 'acme-member', '2026-02-01T05:00:00.000Z', '2026-03-11T00:00:00.000Z'],
  ['red', 'acme-member', '2026-03-16T03:00:00.000Z', null],
  ['red', 'acme-admin', '2026-01-30T00:00:00.000Z', null],
  ['blue', 'acme-admin', '2026-02-09T00:00:00.000Z', '2026-02-19T13:00:00.000Z'],
  ['blue', 'acme-leaver', '2026-01-31T10:30:00.000Z', null],
  ['blue', 'acme-member', '2026-02-20T12:00:00.000Z', '2026-02-20T18:00:00.000Z'],
];
/** Each membership with the team's and the user's ids. */
const memberships: Array<{ teamId: string; userId: string; from: string; to: string | null }> = [];

/** A window bound: none, a day's midnight, or a time inside a day (a day before and after the runs too). */
const bound = fc.option(
  fc.oneof(
    fc.integer({ min: -1, max: DAYS + 1 }).map((d) => DAY0 + d * 24 * HOUR),
    fc.integer({ min: -HOUR, max: (DAYS + 1) * 24 * HOUR }).map((ms) => DAY0 + ms),
  ),
  { freq: 4 },
);
const scope = fc.record({
  folder: fc.option(fc.constantFrom('research', 'deep'), { nil: undefined }),
  project: fc.option(fc.constantFrom('alpha', 'beta', 'root'), { nil: undefined }),
});

beforeAll(async () => {
  hub = await TestHub.start();
  org = await seedOrg(hub, 'acme');
  const folder = async (body: { name: string; parentId?: string }) =>
    (await okBody(org.call('owner', 'createFolder', { body }), 201)).id;
  const project = async (body: { name: string; folderId?: string }) =>
    (await okBody(org.call('owner', 'createProject', { body }), 201)).id;
  ids.research = await folder({ name: 'Research' });
  ids.deep = await folder({ name: 'Deep', parentId: ids.research });
  ids.alpha = await project({ name: 'alpha', folderId: ids.research });
  ids.beta = await project({ name: 'beta', folderId: ids.deep });
  ids.root = await project({ name: 'root' });
  under.research = [ids.alpha, ids.beta];
  under.deep = [ids.beta];
  const projects = [ids.alpha, ids.beta, ids.root];
  await hub.addMembership(org.id, 'acme-leaver', 'MEMBER');
  const users: Record<string, string> = {};
  for (const imOpenId of ['acme-owner', 'acme-admin', 'acme-member', 'acme-leaver']) {
    users[imOpenId] = (await userIdOf(hub, imOpenId))!;
  }
  const token = await okBody(
    org.call('member', 'createApiToken', { body: { name: 'bot', scopes: ['usage:read'] } }),
    201,
  );
  const account = await okBody(org.call('admin', 'createServiceAccount', { body: { name: 'runtime' } }), 201);
  const accountToken = await okBody(
    org.call('admin', 'createApiToken', {
      body: { name: 'runtime key', scopes: ['org:read'], serviceAccountId: account.id },
    }),
    201,
  );
  ids.account = account.id;
  ids.accountToken = accountToken.id;
  /** What each initiator choice names, and who is accountable for its runs. */
  const initiators: Record<string, Pick<Run, 'memberId' | 'tokenId' | 'accountId' | 'initiatedBy'>> = {
    token: {
      memberId: users['acme-member']!,
      tokenId: token.id,
      accountId: null,
      initiatedBy: { type: 'apiToken', id: token.id },
    },
    account: {
      memberId: null,
      tokenId: null,
      accountId: account.id,
      initiatedBy: { type: 'serviceAccount', id: account.id },
    },
    'account-token': {
      memberId: null,
      tokenId: accountToken.id,
      accountId: account.id,
      initiatedBy: { type: 'apiToken', id: accountToken.id },
    },
  };
  for (const imOpenId of Object.keys(users)) {
    initiators[imOpenId] = {
      memberId: users[imOpenId]!,
      tokenId: null,
      accountId: null,
      initiatedBy: { type: 'member', imOpenId },
    };
  }
  const nobody = { memberId: null, tokenId: null, accountId: null, initiatedBy: undefined };
  for (const slug of ['red', 'blue']) {
    ids[slug] = (await okBody(org.call('owner', 'createTeam', { body: { slug, name: slug } }), 201)).id;
  }
  // The history as team_members keeps it (joined = created_at, left = revoked_at), written as it was.
  for (const [team, imOpenId, from, to] of MEMBERSHIPS) {
    memberships.push({ teamId: ids[team]!, userId: users[imOpenId]!, from, to });
    await hub.services.db('team_members').insert({
      id: randomUUID(),
      team_id: ids[team],
      user_id: users[imOpenId],
      created_at: from,
      revoked_at: to,
    });
  }
  // Three files, so the second and third add to rollup rows the first wrote.
  for (const [i, seed] of [11, 12, 13].entries()) {
    const batch = fc.sample(runOf(projects), { seed, numRuns: 120 }).map(
      (r): Run => ({
        ...(r.initiator === null ? nobody : initiators[r.initiator]!),
        projectId: r.projectId,
        // A session belongs to one project; each of its runs' own agent keys the rollups.
        sessionId: `s-${r.projectId.slice(0, 8)}-${r.session}`,
        provider: r.provider,
        roleId: r.roleId,
        model: r.model,
        at: r.at,
        inputTokens: r.inputTokens,
        outputTokens: r.outputTokens,
        costUsd: r.costUsd,
        facts: r.facts as Fact[],
      }),
    );
    runs.push(...batch);
    const file = writeJsonl(
      tmp,
      `runs-${i}.jsonl`,
      batch.map(({ memberId: _m, tokenId: _t, accountId: _a, ...r }) => runLine(r.projectId, r.sessionId, r.at, r)),
    );
    await hub.services.usage.ingest(org.id, file);
  }
  // A leaver's runs stay theirs (and their team memberships end now, after every run).
  await okBody(org.call('owner', 'revokeMember', { path: { userId: users['acme-leaver']! } }));
});
afterAll(async () => {
  await hub.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface Sums {
  count: number;
  withCost: number;
  a: number;
  b: number;
  micros: number;
}
const add = (into: Map<string, Sums>, key: string, costUsd: number | null, a: number, b: number) => {
  const s = into.get(key) ?? { count: 0, withCost: 0, a: 0, b: 0, micros: 0 };
  s.count += 1;
  s.a += a;
  s.b += b;
  if (costUsd !== null) {
    s.withCost += 1;
    s.micros += costMicros(costUsd);
  }
  into.set(key, s);
};
const usd = (s: Sums) => (s.withCost === 0 ? null : s.micros / 1e6);

/** What summing the raw runs in the window and scope gives, in the answers' shapes. */
function expected(from: string | undefined, to: string | undefined, projects: Set<string>) {
  const chosen = runs.filter(
    (r) => projects.has(r.projectId) && (from === undefined || r.at >= from) && (to === undefined || r.at < to),
  );
  const byProject = new Map<string, Sums>();
  const byKind = new Map<string, Sums>();
  const byCapability = new Map<string, Sums>();
  const total: Sums = { count: 0, withCost: 0, a: 0, b: 0, micros: 0 };
  for (const r of chosen) {
    add(byProject, r.projectId, r.costUsd, r.inputTokens, r.outputTokens);
    total.count += 1;
    total.a += r.inputTokens;
    total.b += r.outputTokens;
    if (r.costUsd !== null) {
      total.withCost += 1;
      total.micros += costMicros(r.costUsd);
    }
    for (const f of r.facts) {
      add(byKind, f.kind, f.costUsd, f.quantity, 0);
      if (f.kind === 'capability') add(byCapability, f.capabilityId!, f.costUsd, f.quantity, 0);
    }
  }
  const report = [...byProject.entries()]
    .map(([projectId, s]) => ({
      projectId,
      runCount: s.count,
      runsWithCost: s.withCost,
      inputTokens: s.a,
      outputTokens: s.b,
      costUsd: usd(s),
    }))
    .sort((x, y) => x.projectId.localeCompare(y.projectId));
  const facts = (m: Map<string, Sums>) =>
    [...m.entries()]
      .map(([key, s]) => ({ key, factCount: s.count, quantity: s.a, costUsd: usd(s) }))
      .sort((x, y) => x.key.localeCompare(y.key));
  return { report, total, byKind: facts(byKind), byCapability: facts(byCapability) };
}

async function answers(filter: { from?: string; to?: string; folderId?: string; projectId?: string }) {
  const report = await hub.services.usage.report(org.id, filter);
  const breakdown = await hub.services.usage.breakdown(org.id, filter);
  const spend = await spendIn(usageStore, hub.services.db, org.id, {
    from: report.from ?? undefined,
    to: report.to ?? undefined,
    ...filter,
  });
  return {
    report: report.projects
      .map((p) => ({
        projectId: p.projectId,
        runCount: p.runCount,
        runsWithCost: p.runsWithCost,
        inputTokens: p.inputTokens,
        outputTokens: p.outputTokens,
        costUsd: p.costUsd,
      }))
      .sort((x, y) => x.projectId.localeCompare(y.projectId)),
    totals: report.totals,
    spend,
    byKind: breakdown.byFactKind
      .map((k) => ({ key: k.kind, factCount: k.factCount, quantity: k.quantity, costUsd: k.costUsd }))
      .sort((x, y) => x.key.localeCompare(y.key)),
    byCapability: breakdown.byCapability
      .map((c) => ({ key: c.capabilityId, factCount: c.factCount, quantity: c.quantity, costUsd: c.costUsd }))
      .sort((x, y) => x.key.localeCompare(y.key)),
  };
}

/** Compares the answers for a window and scope with the raw runs' sums. */
async function check(from: number | null, to: number | null, s: { folder?: string; project?: string }) {
  let [a, b] = [from, to];
  if (a !== null && b !== null && a > b) [a, b] = [b, a];
  const fromIso = a === null ? undefined : new Date(a).toISOString();
  const toIso = b === null ? undefined : new Date(b).toISOString();
  const projectId = s.project === undefined ? undefined : ids[s.project];
  const folderId = s.folder === undefined ? undefined : ids[s.folder];
  let scoped = new Set([ids.alpha!, ids.beta!, ids.root!]);
  if (folderId !== undefined) scoped = new Set(under[s.folder!]);
  if (projectId !== undefined) scoped = new Set([...scoped].filter((p) => p === projectId));
  const want = expected(fromIso, toIso, scoped);
  const filter = { from: fromIso, to: toIso, folderId, projectId };
  const got = await answers(filter);
  expect(got.report).toEqual(want.report);
  expect(got.totals).toMatchObject({
    runCount: want.total.count,
    runsWithCost: want.total.withCost,
    inputTokens: want.total.a,
    outputTokens: want.total.b,
    costUsd: want.total.withCost === 0 ? null : want.total.micros / 1e6,
  });
  expect(got.spend).toEqual({
    costUsd: want.total.micros / 1e6,
    tokens: want.total.a + want.total.b,
    runsWithoutCost: want.total.count - want.total.withCost,
  });
  expect(got.byKind).toEqual(want.byKind);
  expect(got.byCapability).toEqual(want.byCapability);
  // The series filters by folder, not by project.
  if (fromIso !== undefined && toIso !== undefined && projectId === undefined) {
    for (const groupBy of GROUPINGS) await checkSeries(fromIso, toIso, folderId, scoped, groupBy);
  }
}

/** Each grouping of the series, and the keys a raw run counts under in it ('' for none). */
const GROUP_KEYS = {
  project: (r: Run) => [r.projectId],
  model: (r: Run) => [r.model],
  provider: (r: Run) => [r.provider],
  role: (r: Run) => [r.roleId],
  member: (r: Run) => [r.memberId ?? ''],
  apiToken: (r: Run) => [r.tokenId ?? ''],
  serviceAccount: (r: Run) => [r.accountId ?? ''],
  // Every team its member was in at the run's time; a run nobody started is the one row ''.
  team: (r: Run) =>
    r.memberId === null
      ? ['']
      : memberships
          .filter((m) => m.userId === r.memberId && m.from <= r.at && (m.to === null || r.at < m.to))
          .map((m) => m.teamId),
} as const;
const GROUPINGS = Object.keys(GROUP_KEYS) as Array<keyof typeof GROUP_KEYS>;

/** The daily series over a window equals the raw runs summed per UTC day and own project, model, provider or role. */
async function checkSeries(
  from: string,
  to: string,
  folderId: string | undefined,
  scoped: Set<string>,
  groupBy: keyof typeof GROUP_KEYS,
) {
  const series = await hub.services.usageSeries.get(org.id, { from, to, bucket: 'day', groupBy, folderId });
  const byDay = new Map<string, Sums>();
  const byGroup = new Map<string, Sums>();
  for (const r of runs) {
    if (scoped.has(r.projectId) && r.at >= from && r.at < to) {
      for (const group of GROUP_KEYS[groupBy](r)) {
        add(byDay, `${r.at.slice(0, 10)} ${group}`, r.costUsd, r.inputTokens, r.outputTokens);
        add(byGroup, group, r.costUsd, r.inputTokens, r.outputTokens);
      }
    }
  }
  const got = series.buckets
    .flatMap((b) => b.groups.map((g) => ({ ...g, key: `${b.start.slice(0, 10)} ${g.key ?? ''}` })))
    .map((g) => [g.key, g.runCount, g.inputTokens, g.outputTokens, g.costUsd])
    .sort();
  const want = [...byDay.entries()].map(([key, s]) => [key, s.count, s.a, s.b, usd(s)]).sort();
  expect(got).toEqual(want);
  // The report by person over the same window: each group's sums of the raw runs.
  if (groupBy === 'member' || groupBy === 'team' || groupBy === 'apiToken' || groupBy === 'serviceAccount') {
    const report = await hub.services.usage.report(org.id, { from, to, folderId, groupBy });
    expect(
      report
        .groups!.map((g) => [g.key ?? '', g.runCount, g.runsWithCost, g.inputTokens, g.outputTokens, g.costUsd])
        .sort(),
    ).toEqual([...byGroup.entries()].map(([key, s]) => [key, s.count, s.withCost, s.a, s.b, usd(s)]).sort());
    // A budget scoped to each one of them spends the same sums.
    for (const [key, s] of byGroup) {
      if (key === '') continue;
      const filter = { from, to, folderId, ...{ [BUDGET_FILTER[groupBy]]: key } };
      const spend =
        groupBy === 'team'
          ? await teamSpendIn(teams, hub.services.db, org.id, filter)
          : await spendIn(usageStore, hub.services.db, org.id, filter);
      expect(spend).toEqual(spendOfSums(s));
    }
  }
  // A per-member allowance over the organization (or the folder), and over each team: each
  // member's own runs, in the team while they were in it.
  if (groupBy === 'member' || groupBy === 'team') {
    const teamIds = groupBy === 'team' ? [ids.red!, ids.blue!] : [undefined];
    for (const teamId of teamIds) {
      const want = new Map<string, Sums>();
      for (const r of runs) {
        if (!scoped.has(r.projectId) || r.at < from || r.at >= to || r.memberId === null) continue;
        if (teamId !== undefined && !GROUP_KEYS.team(r).includes(teamId)) continue;
        add(want, r.memberId, r.costUsd, r.inputTokens, r.outputTokens);
      }
      const got = await memberSpendsIn({ usage: usageStore, teams }, hub.services.db, org.id, {
        from,
        to,
        folderId,
        teamId,
      });
      expect(new Map([...got].sort())).toEqual(new Map([...want].sort().map(([m, s]) => [m, spendOfSums(s)])));
    }
  }
}

const spendOfSums = (s: Sums) => ({
  costUsd: s.micros / 1e6,
  tokens: s.a + s.b,
  runsWithoutCost: s.count - s.withCost,
});

/** The usage filter a budget of each person scope reads. */
const BUDGET_FILTER = {
  member: 'memberId',
  team: 'teamId',
  apiToken: 'apiTokenId',
  serviceAccount: 'serviceAccountId',
} as const;
const usageStore = new UsageStore(new FolderTreeStore('folders'));
const teams = new TeamSums(usageStore);

const FEBRUARY = Date.parse('2026-02-01T00:00:00.000Z');
const MARCH = Date.parse('2026-03-01T00:00:00.000Z');
const APRIL = Date.parse('2026-04-01T00:00:00.000Z');

describe('usage rollups', () => {
  it('answer the report, the breakdown, the series and budget spend exactly as summing the raw runs', async () => {
    // Whole months, whole days, edges inside a day, an empty window and the whole history, always among them.
    const day = (d: number) => DAY0 + d * 24 * HOUR;
    await check(null, null, {});
    await check(FEBRUARY, MARCH, {});
    await check(FEBRUARY, APRIL, { folder: 'research' });
    await check(day(1), APRIL + 5 * HOUR, {});
    await check(day(1) + 5 * HOUR, MARCH + 3 * 24 * HOUR + 7 * HOUR, { folder: 'deep' });
    await check(null, MARCH, { project: 'beta' });
    await check(MARCH - HOUR, null, {});
    await check(day(1), day(3), {});
    await check(day(1) + 5 * HOUR, day(3) + 7 * HOUR, { folder: 'research' });
    await check(day(2) + HOUR, day(2) + HOUR, {});
    await check(day(2) + HOUR, day(2) + 9 * HOUR, { project: 'alpha' });
    await fc.assert(
      fc.asyncProperty(bound, bound, scope, (from, to, s) => check(from, to, s)),
      { numRuns: 60, seed: 40 },
    );
  });

  it('are repaired by hub usage rebuild-rollups, audited', async () => {
    const env = cliEnv(hub.database.dataDir, hub.database.databaseUrl);
    // A corrupted row in each level is read by some answer, and the rebuild puts every one right.
    const db = hub.services.db;
    await db('usage_run_months').where('organization_id', org.id).update({ run_count: 999_999, cost_micros: 1 });
    await db('usage_fact_org_months').where('organization_id', org.id).update({ fact_count: 0 });
    await db('usage_fact_months').where('organization_id', org.id).update({ quantity: 7 });
    await db('usage_run_days').where('organization_id', org.id).update({ input_tokens: 1 });
    await db('usage_run_agent_days').where('organization_id', org.id).update({ output_tokens: 2 });
    await db('usage_fact_days').where('organization_id', org.id).update({ facts_with_cost: 0 });
    await db('usage_run_member_days').where('organization_id', org.id).update({ cost_micros: 3 });
    await db('usage_run_member_months').where('organization_id', org.id).update({ run_count: 5 });
    await expect(check(null, null, {})).rejects.toThrow();
    await expect(check(null, null, { folder: 'research' })).rejects.toThrow();
    await expect(check(DAY0 + HOUR, APRIL + HOUR, {})).rejects.toThrow();

    const result = await runHub(['usage', 'rebuild-rollups', 'acme'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('rebuilt the usage rollups of acme\n');
    await check(null, null, {});
    await check(null, null, { folder: 'research' });
    await check(DAY0 + HOUR, APRIL + HOUR, {});
    const events = await okBody(
      org.call('owner', 'listAuditEvents', { query: { action: 'hub.usage.rebuild-rollups' } }),
    );
    expect(events.events.length).toBe(1);

    const missing = await runHub(['usage', 'rebuild-rollups', 'nowhere'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('hub usage: no organization "nowhere"\n');
  });
});
