/**
 * The `structure` case: an organization at the targets' scale (20,000 projects in 2,000
 * folders, 5,000 members, 500 teams, 50,000 grants, a few hundred chat bindings), seeded
 * straight into a scratch database, then timed over HTTP from a client process of its own
 * (bench/lib/http-client.ts) that reads each answer whole, against `hub serve` on that database,
 * started as operators start it (bench/lib/hub-serve.ts): a process with nothing else in its heap,
 * where this one has just seeded the data (a process that has made and dropped hundreds of
 * thousands of objects answers slower: bench/README.md). Our real app also answers
 * in this process (createServices + createApp, no response validation, info logging to /dev/null),
 * untimed, for what only a process's own database handle can see: each request's statements and
 * their plans.
 *
 * Timed one request at a time (single-request latency, not throughput): getExplorer and
 * listMembers as the owner, listMyProjects as a member of 20 teams, getProject as that member
 * (a project reached through a team) and as the owner. Each answer is checked against the seed
 * first, and getExplorer / listMyProjects / listMembers are split into their stages (store
 * queries, handler, JSON.stringify) to show DB cost apart from serialization.
 *
 * Environment: DATABASE_URL (PostgreSQL: a scratch database is created there and dropped
 * afterwards, so the role needs CREATEDB), BENCH_SCALE (0 < s <= 1, default 1: the data at a
 * fraction of the size, for a quick run), BENCH_ANALYZE=0|1 (gather planner statistics after
 * seeding; default on PostgreSQL, where autovacuum would, and off on SQLite, where the app never
 * does), BENCH_EXPLAIN=1 (print every query plan, not only those of slow endpoints).
 * Returns 1 when an answer did not match the seed; slow figures are reported, not failed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { createServices, type Services } from '../../src/app/services.js';
import { systemClock } from '../../src/config/clock.js';
import type { Config } from '../../src/config/config.js';
import type { Db } from '../../src/db/connect.js';
import { explorerOperations } from '../../src/explorer/operations.js';
import { listedAnswerText } from '../../src/http/answer.js';
import type { Schema } from '../../src/api/types.js';
import { createLogger } from '../../src/log/logger.js';
import { memberOperations } from '../../src/members/operations.js';
import type { OrgAccess } from '../../src/orgs/store.js';
import { byCodeUnits, byName } from '../../src/shared/order.js';
import { benchConfig, envNumber, envSwitch } from '../lib/env.js';
import { captureQueries, explain, isRead } from '../lib/query-plan.js';
import { analyzeWhenAsked, openScratchDb, reportHeader } from '../lib/scratch-db.js';
import { FULL_SIZE, scaledSize, seedStructure, type SeededStructure } from '../lib/seed-structure.js';
import {
  formatStructureReport,
  type EndpointFigures,
  type StageFigures,
  type StructureReport,
} from '../lib/structure-report.js';
import { timeCalls, type TimingOptions } from '../lib/timing.js';
import { type Answer, HeldResources, getJson, listenInProcess, login, readJson } from '../lib/in-process.js';
import { recordCaseReport, recordTarget } from '../lib/targets.js';
import { ceilingVariable } from '../../src/capacity/dimensions.js';
import { startHubServe } from '../lib/hub-serve.js';
import type { BenchCase } from './case.js';

const resultsFile = (engine: string) => fileURLToPath(new URL(`../results/structure-${engine}.json`, import.meta.url));

/** Big answers (whole tree, all members) and small ones (a member's list, one project). */
const BIG: TimingOptions = { warmup: 3, n: 20, budgetMs: 60_000 };
const SMALL: TimingOptions = { warmup: 10, n: 200, budgetMs: 30_000 };
const REQUEST_TIMEOUT_MS = 60_000;
/** Requests to the app in this process whose statements are counted (caches warm or not). */
const COUNTED_REQUESTS = 3;

/** Medians above these are flagged and their query plans printed. */
const SLOW_MS = { getExplorer: 1_000, listMembers: 1_000, listMyProjects: 250, getProject: 50 } as const;

const held = new HeldResources();
const release = () => held.release();

const get = (url: string, cookie: string): Promise<Answer> =>
  getJson(held.httpClient(), url, cookie, REQUEST_TIMEOUT_MS);
const read = (url: string, cookie: string) => readJson(held.httpClient(), url, cookie, REQUEST_TIMEOUT_MS);

interface EndpointSpec {
  operation: keyof typeof SLOW_MS;
  path: string;
  actor: 'owner' | 'member';
  timing: TimingOptions;
  itemsLabel: string;
  /** Counts the answer's items and records what is wrong with it. */
  inspect(body: unknown, fail: (problem: string) => void): number;
}

async function run(): Promise<number> {
  const scale = envNumber('BENCH_SCALE', 1, 0, 1);
  const size = scale === 1 ? FULL_SIZE : scaledSize(scale);
  const explainAll = envSwitch('BENCH_EXPLAIN', false);
  const tag = randomBytes(4).toString('hex');

  process.stdout.write('structure: creating the scratch database… ');
  const scratch = await openScratchDb(tag);
  held.scratch = scratch;
  const { db } = scratch;
  process.stdout.write(`${scratch.engine}, ${scratch.where}\n`);

  process.stdout.write(
    `seeding ${size.projects.toLocaleString('en-US')} projects, ${size.grants.toLocaleString('en-US')} grants… `,
  );
  const seed = await seedStructure(db, size, tag);
  process.stdout.write(`${(seed.seedMs / 1000).toFixed(1)} s\n`);

  const { analyzed, analyzeMs } = await analyzeWhenAsked(scratch);

  // The app as production wires it, minus the port: info logging (to /dev/null), no response validation.
  const config: Config = benchConfig(scratch);
  const logger = createLogger({ level: 'info', destination: pino.destination({ dest: '/dev/null', sync: true }) });
  const services = createServices({ config, db, readers: scratch.readers, clock: systemClock, logger });
  const { server, origin: inProcess } = await listenInProcess(services);
  held.server = server;
  process.stdout.write('starting hub serve on the scratch database… ');
  // Every timed loop stays far below this: a 429 would time the refusal.
  const hub = await startHubServe(scratch, { env: { [ceilingVariable('requestRate')]: '1000000000' } });
  held.hub = hub;
  process.stdout.write(`pid ${hub.pid}\n`);
  const cookies = {
    owner: await login(services, seed.owner.imOpenId),
    member: await login(services, seed.member.imOpenId),
  };

  const passed: string[] = [];
  const failed: string[] = [];
  const check = (ok: boolean, what: string) => (ok ? passed : failed).push(what);

  const directCount = await memberProjectCountBySql(db, seed);
  check(
    directCount === seed.expected.memberProjects,
    `my-projects by direct SQL (${directCount}) = seed model (${seed.expected.memberProjects})`,
  );

  const org = `/api/org/${seed.org.slug}`;
  const specs = endpointSpecs(org, seed, directCount);
  const endpoints: EndpointFigures[] = [];
  for (const spec of specs) {
    process.stdout.write(`${spec.operation} as ${spec.actor}: `);
    const url = hub.baseUrl + spec.path;
    const cookie = cookies[spec.actor];
    const first = await read(url, cookie);
    if (first.status !== 200)
      throw new Error(`GET ${spec.path} as ${spec.actor} answered ${first.status}: ${first.text.slice(0, 300)}`);
    const problems: string[] = [];
    const items = spec.inspect(JSON.parse(first.text), (p) => problems.push(p));
    check(
      problems.length === 0,
      `${spec.operation} as ${spec.actor}: ` +
        (problems.length ? problems.join('; ') : `answer matches the seed (${items} ${spec.itemsLabel})`),
    );

    const timing = await timeCalls(async () => {
      const answer = await get(url, cookie);
      if (answer.status !== 200)
        throw new Error(`GET ${spec.path} as ${spec.actor} answered ${answer.status} during timing`);
      return answer;
    }, spec.timing);
    // The statements of the same request, sent to the app in this process.
    const queries = await captureQueries(db, async () => {
      for (let i = 0; i < COUNTED_REQUESTS; i++) await get(inProcess + spec.path, cookie);
    });
    const figures: EndpointFigures = {
      operation: spec.operation,
      path: spec.path,
      actor: spec.actor,
      timing,
      bytes: first.bytes,
      items,
      itemsLabel: spec.itemsLabel,
      statementsPerRequest: queries.length / COUNTED_REQUESTS,
      slowAboveMs: SLOW_MS[spec.operation],
      slow: timing.medianMs > SLOW_MS[spec.operation],
      plans: [],
    };
    endpoints.push(figures);
    // The plans of the counted requests' reads, each distinct statement once.
    const distinct = [...new Map(queries.filter(isRead).map((q) => [q.sql, q])).values()];
    for (const q of distinct) figures.plans.push(await explain(db, q));
    process.stdout.write(`median ${figures.timing.medianMs.toFixed(2)} ms over ${figures.timing.n}\n`);
  }

  if (scratch.engine === 'sqlite') {
    // The explorer's projects are read in their list's order from the index kept in it: a plan
    // that sorts them, or reads them another way, has lost what that index bought.
    const tree = endpoints.find((e) => e.operation === 'getExplorer')?.plans.find((p) => p.sql.includes('`p`.`name`'));
    const plan = tree?.plan ?? [];
    check(
      plan.some((line) => line.includes('USING INDEX projects_active_org_name_idx')) &&
        !plan.some((line) => line.includes('TEMP B-TREE')),
      'getExplorer: the projects come from projects_active_org_name_idx, in order, with no sort in the plan',
    );
    // A member's own projects are found from their grants, whatever the organization's size: a
    // plan that reads the organization's projects through that index instead costs ~3×.
    const mine = endpoints.find((e) => e.operation === 'listMyProjects')?.plans[0]?.plan ?? [];
    check(
      mine.length > 0 && !mine.some((line) => line.includes('projects_active_org_name_idx')),
      "listMyProjects: the projects are looked up from the member's grants, not read through the organization's",
    );
  }

  process.stdout.write('timing the stages in process… ');
  const stages = await timeStages(services, seed);
  process.stdout.write('done\n');

  const report: StructureReport = {
    ...reportHeader(scratch, analyzed),
    size,
    rows: seed.rows,
    seedMs: seed.seedMs,
    analyzeMs,
    seeded: {
      orgSlug: seed.org.slug,
      memberActiveTeams: seed.member.activeTeams,
      memberProjects: seed.expected.memberProjects,
      targetProjectId: seed.targetProject.id,
    },
    endpoints,
    stages,
    checks: { passed, failed },
    valid: failed.length === 0,
  };
  console.log(`\n${formatStructureReport(report, { allPlans: explainAll })}\n`);
  const explorer = endpoints.find((e) => e.operation === 'getExplorer');
  if (explorer)
    recordTarget(
      'explorer.20k',
      scale === 1 ? explorer.timing.medianMs : Number.NaN,
      scale === 1
        ? `median of ${explorer.timing.n} sequential GETs to hub serve, ${scratch.engine}, ${explorer.items} projects`
        : `not at full scale (BENCH_SCALE=${scale}: ${explorer.items} projects, ` +
            `${explorer.timing.medianMs.toFixed(1)} ms)`,
    );
  recordCaseReport('structure', report);
  const file = resultsFile(scratch.engine);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`figures written to ${path.relative(process.cwd(), file)}`);
  return report.valid ? 0 : 1;
}

/** The member's readable projects, counted by hand-written SQL independent of the app's query builder. */
async function memberProjectCountBySql(db: Db, seed: SeededStructure): Promise<number> {
  const rows = (await db.raw(
    `select count(distinct p.id) as n
       from projects p
       join project_grants g on g.project_id = p.id
      where p.organization_id = ? and p.archived_at is null
        and ((g.principal_type = 'USER' and g.principal_id = ?)
          or (g.principal_type = 'TEAM' and g.principal_id in (
                select tm.team_id from team_members tm join teams t on t.id = tm.team_id
                 where tm.user_id = ? and tm.revoked_at is null and t.archived_at is null and t.organization_id = ?)))`,
    [seed.org.id, seed.member.id, seed.member.id, seed.org.id],
  )) as { n: number | string }[] | { rows: { n: number | string }[] };
  const row = Array.isArray(rows) ? rows[0] : rows.rows[0];
  return Number(row?.n ?? Number.NaN);
}

function sortedBy<T>(items: readonly T[], order: (a: T, b: T) => number): boolean {
  for (let i = 1; i < items.length; i++) if (order(items[i - 1]!, items[i]!) > 0) return false;
  return true;
}

function endpointSpecs(org: string, seed: SeededStructure, directCount: number): EndpointSpec[] {
  const { expected } = seed;
  const byProjectName = (a: Schema<'ExplorerProject'>, b: Schema<'ExplorerProject'>) =>
    byName(a.name, b.name) || byCodeUnits(a.id, b.id);
  const project = (actor: 'owner' | 'member'): EndpointSpec => ({
    operation: 'getProject',
    path: `${org}/projects/${seed.targetProject.id}`,
    actor,
    timing: SMALL,
    itemsLabel: 'project',
    inspect(body, fail) {
      const p = body as Schema<'ProjectDetail'>;
      if (p.id !== seed.targetProject.id) fail(`answered project ${p.id}`);
      if (!p.folder) fail('no folder');
      if (!p.binding) fail('no binding');
      if (!p.createdBy) fail('no creator');
      if (p.actorIsOrgAdmin !== (actor === 'owner')) fail(`actorIsOrgAdmin ${p.actorIsOrgAdmin}`);
      if (actor === 'member' && p.actorCanManageProject !== (seed.targetProject.memberRole === 'MANAGE'))
        fail(`actorCanManageProject ${p.actorCanManageProject}`);
      return 1;
    },
  });
  return [
    {
      operation: 'getExplorer',
      path: `${org}/explorer`,
      actor: 'owner',
      timing: BIG,
      itemsLabel: 'projects',
      inspect(body, fail) {
        const { folders, projects } = body as Schema<'ExplorerData'>;
        if (projects.length !== expected.activeProjects)
          fail(`${projects.length} projects, expected ${expected.activeProjects}`);
        if (folders.length !== expected.activeFolders)
          fail(`${folders.length} folders, expected ${expected.activeFolders}`);
        const counted = folders.reduce((sum, f) => sum + f.projectCount, 0);
        if (counted !== expected.activeProjectsInFolders)
          fail(`folder projectCounts sum to ${counted}, expected ${expected.activeProjectsInFolders}`);
        const children = folders.reduce((sum, f) => sum + f.childFolderCount, 0);
        if (children !== expected.activeChildFolders)
          fail(`folder childFolderCounts sum to ${children}, expected ${expected.activeChildFolders}`);
        const bound = projects.filter((p) => p.binding).length;
        if (bound !== expected.activeBindingsOnActiveProjects)
          fail(`${bound} bound projects, expected ${expected.activeBindingsOnActiveProjects}`);
        if (!sortedBy(projects, byProjectName)) fail('projects not ordered by name');
        return projects.length;
      },
    },
    {
      operation: 'listMyProjects',
      path: `${org}/my-projects`,
      actor: 'member',
      timing: SMALL,
      itemsLabel: 'projects',
      inspect(body, fail) {
        const { projects } = body as Schema<'MyProjectList'>;
        if (projects.length !== directCount) fail(`${projects.length} projects, direct SQL count says ${directCount}`);
        if (!projects.some((p) => p.id === seed.targetProject.id)) fail('the team-reached target project is missing');
        if (new Set(projects.map((p) => p.id)).size !== projects.length) fail('a project is listed twice');
        if (!sortedBy(projects, byProjectName)) fail('projects not ordered by name');
        return projects.length;
      },
    },
    project('member'),
    project('owner'),
    {
      operation: 'listMembers',
      path: `${org}/members`,
      actor: 'owner',
      timing: BIG,
      itemsLabel: 'members',
      inspect(body, fail) {
        const { members } = body as Schema<'MemberList'>;
        if (members.length !== expected.activeMembers)
          fail(`${members.length} members, expected ${expected.activeMembers}`);
        const owners = members.filter((m) => m.role === 'OWNER').length;
        if (owners !== 1) fail(`${owners} owners`);
        return members.length;
      },
    },
  ];
}

/**
 * The stages behind the big answers, each timed alone: the store queries, the operation's
 * handler (queries + mapping + sorting) and JSON.stringify of its result. The HTTP figure of the
 * same operation adds routing, authorization, the response write and the client's read.
 */
async function timeStages(services: Services, seed: SeededStructure): Promise<StageFigures[]> {
  const access: OrgAccess = {
    organization: { id: seed.org.id, slug: seed.org.slug, name: seed.org.name, status: 'ACTIVE', purge_at: null },
    role: 'OWNER',
    memberName: 'Owner',
  };
  const orgId = seed.org.id;
  // Handlers are called as the router calls them, with only the context fields they read.
  type Handle = (ctx: unknown) => Promise<unknown>;
  const explorerOps = explorerOperations(services.explorer);
  const getExplorer = explorerOps.getExplorer!.handle as unknown as Handle;
  const listMyProjects = explorerOps.listMyProjects!.handle as unknown as Handle;
  const listMembers = memberOperations(services.members).listMembers!.handle as unknown as Handle;
  const memberCtx = {
    access: { ...access, role: 'MEMBER' },
    session: { user: { id: seed.member.id } },
    query: {},
  };

  const explorerBody = await getExplorer({ access });
  const myBody = await listMyProjects(memberCtx);
  // No limit: the whole list, as GET /members without a cursor answers it.
  const membersBody = await listMembers({ access, query: {} });
  type Stage = [string, string, TimingOptions, () => Promise<unknown> | unknown];
  /** Serializing an answer, unless it is the database's text, sent as it is. */
  const serializing = (operation: string, body: unknown, options: TimingOptions): Stage[] =>
    listedAnswerText(body) ? [] : [[operation, 'JSON.stringify of the answer', options, () => JSON.stringify(body)]];
  const plan: Stage[] = [
    [
      'getExplorer',
      'the tree statement: folders, counts, projects as JSON text (explorer.tree)',
      BIG,
      () => services.explorer.tree(orgId),
    ],
    ['getExplorer', 'handler: the tree statement + mapping + sorting', BIG, () => getExplorer({ access })],
    // An answer the database wrote in the list's order (isInListOrder) is sent as it is: nothing
    // is serialized.
    ...serializing('getExplorer', explorerBody, BIG),
    [
      'listMyProjects',
      'projects statement, as JSON text (explorer.projectsOfUser)',
      SMALL,
      () => services.explorer.projectsOfUser(orgId, seed.member.id),
    ],
    ['listMyProjects', 'handler: the statement (+ sorting, when needed)', SMALL, () => listMyProjects(memberCtx)],
    ...serializing('listMyProjects', myBody, SMALL),
    [
      'listMembers',
      'handler: the list statement (+ sorting, when needed)',
      BIG,
      () => listMembers({ access, query: {} }),
    ],
    ...serializing('listMembers', membersBody, BIG),
  ];
  const stages: StageFigures[] = [];
  for (const [operation, stage, options, fn] of plan)
    stages.push({ operation, stage, timing: await timeCalls(fn, options) });
  return stages;
}

export const structureCase: BenchCase = {
  name: 'structure',
  summary:
    'an org at scale (20k projects, 2k folders, 5k members, 500 teams, 50k grants): ' +
    'explorer, my-projects, project, members timed',
  run,
  abort: release,
};
