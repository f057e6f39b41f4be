/**
 * The `usage` case: an organization with 1,000,000 agent runs over 2,000 projects.
 *
 * 1. Seeds the org, its owner, a folder tree (100 roots × 4 children) and 2,000 projects
 *    straight into a scratch database, and writes the runs as a JSON Lines file (~20,000
 *    sessions, twelve months, ~20 % without cost) into the run's temp dir.
 * 2. Loads the file through the real ingest path, services.usage.ingest (what `hub usage
 *    ingest` calls: one pass, one transaction), and reports runs/s; then checks the row counts.
 * 3. Starts our real app in this process (createServices + createApp, no response validation,
 *    info logging to /dev/null) on a loopback port, logs the owner in, and times, from a client
 *    process of its own (bench/lib/http-client.ts), GET /api/org/{slug}/usage unfiltered, for one
 *    month, and for one root folder's subtree (~1/100 of the projects). Interleaved with each
 *    request, round by round: the same report in process (services.usage.report), the same
 *    aggregation as one hand-written statement through db.raw, and a pre-aggregating rewrite of
 *    it (runs grouped by project first, then joined to projects; the folder's runs picked by
 *    project id). Every answer is checked against the generator's model and against each other.
 * 4. Repeats step 3 with each candidate index (INDEX_PASSES) added alone to the scratch
 *    database, to show what it would buy before a migration adds it.
 * 5. The breakdown: gives every run three usage facts (model tokens, tool calls, calls of one
 *    of 20 external capabilities, 10 of which have a connection for their label) with one
 *    INSERT … SELECT, 3M facts for 1M runs, then times GET /usage/breakdown (unfiltered, one
 *    month, one folder, one project) over HTTP and in process against the same two
 *    aggregations written by hand as raw statements, side by side; every answer is checked
 *    against the raw one. BENCH_USAGE_BREAKDOWN=0 skips it. Figures also go to
 *    bench/results/usage-breakdown-<engine>.json.
 *
 * Environment: DATABASE_URL (PostgreSQL: a scratch database is created there and dropped
 * afterwards; the role needs CREATEDB), BENCH_SCALE (0 < s <= 1, default 1; BENCH_USAGE_SCALE
 * overrides it for this case), BENCH_ANALYZE=0|1
 * (default on PostgreSQL, off on SQLite, as in the structure case), BENCH_EXPLAIN=1 (print
 * every plan; the unfiltered plans are printed anyway when its HTTP median is above 2 s),
 * BENCH_USAGE_INDEXES=0 (skip the index passes), BENCH_USAGE_REPORT=0 (ingest only: no report passes, no
 * breakdown).
 * Returns 1 when a check failed (an answer did not match the data); slow figures are reported,
 * not failed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { createServices, type Services } from '../../src/app/services.js';
import { systemClock } from '../../src/config/clock.js';
import type { Config } from '../../src/config/config.js';
import type { Db } from '../../src/db/connect.js';
import type { Schema } from '../../src/api/types.js';
import { createLogger } from '../../src/log/logger.js';
import type { UsageService, IngestResult } from '../../src/usage/service.js';
import { benchConfig, envNumber, envSwitch } from '../lib/env.js';
import { captureQueries, explain, isRead, type QueryPlan } from '../lib/query-plan.js';
import { analyzeWhenAsked, openScratchDb, reportHeader } from '../lib/scratch-db.js';
import {
  MONTH_WINDOW,
  USAGE_FULL_SIZE,
  scaledUsageSize,
  seedUsageOrg,
  writeUsageRuns,
  type GeneratedRuns,
  type ModelTotals,
  type SeededUsageOrg,
} from '../lib/seed-usage.js';
import { timeInterleaved, type TimingOptions, type TimingStats } from '../lib/timing.js';
import {
  formatUsageReport,
  type IndexPass,
  type ReportTotals,
  type UsageBenchReport,
  type UsageVariant,
  type VariantFigures,
} from '../lib/usage-report.js';
import { type Answer, HeldResources, getJson, listenInProcess, login, readJson } from '../lib/in-process.js';
import { recordCaseReport, recordTarget } from '../lib/targets.js';
import { measureRollupReads, measureRssGrowth } from './usage-rollups.js';
import { FACT_LEVELS, RUN_LEVELS } from '../../src/usage/rollup-levels.js';
import { RollupStore } from '../../src/usage/rollup-store.js';
import type { BenchCase } from './case.js';
import type { UsageRowRecord } from '../../src/usage/records.js';

const resultsFile = (engine: string) => fileURLToPath(new URL(`../results/usage-${engine}.json`, import.meta.url));

/** At least 10 timed rounds (each call once a round); more, within the budget, when they are quick. */
const TIMING: TimingOptions = { warmup: 2, n: 30, minN: 10, budgetMs: 30_000 };
const REQUEST_TIMEOUT_MS = 120_000;
/** Above this unfiltered HTTP median, the plans are printed. */
const SLOW_MS = 2_000;

/**
 * Candidate indexes, each measured alone against the migrations' indexes (created before its
 * pass, dropped after). The migrations already cover the report in (organization, project)
 * order (`runs_org_project_cover_idx`, which hands GROUP BY project its rows grouped and lets
 * the folder filter seek by project); the candidate covers the same columns in (organization,
 * time) order, for the window.
 */
const INDEX_PASSES: readonly { name: string; columns: string }[] = [
  { name: 'runs_org_at_cover_idx', columns: 'organization_id, at, project_id, input_tokens, output_tokens, cost_usd' },
];

const held = new HeldResources();
const release = () => held.release();

/** The raw statements return the same columns as the report's own query. */
/** A per-project sum: the raw statements' cost in dollars, the app's in micro-dollars. */
type RawRow = UsageRowRecord & { cost_usd?: number | string | null };

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows);

const AGGREGATES = `count(*) as run_count, count(r.cost_usd) as runs_with_cost,
       sum(r.input_tokens) as input_tokens, sum(r.output_tokens) as output_tokens, sum(r.cost_usd) as cost_usd`;
/** The aggregation as the app writes it (UsageStore.usageByProject): join, then group by project. */
const SELECT = `select r.project_id, p.name as project_name, p.folder_id,
       ${AGGREGATES}
  from runs r
  join projects p on p.id = r.project_id`;
const GROUP = 'group by r.project_id, p.name, p.folder_id';
/** A rewrite: runs grouped by project alone, then the (few) result rows joined to projects. */
const preAggregated = (where: string) => `select a.project_id, p.name as project_name, p.folder_id,
       a.run_count, a.runs_with_cost, a.input_tokens, a.output_tokens, a.cost_usd
  from (select r.project_id, ${AGGREGATES}
          from runs r
         where ${where}
         group by r.project_id) a
  join projects p on p.id = a.project_id`;
const SUBTREE = `with recursive sub(id) as (
  select f.id from folders f where f.organization_id = ? and f.id = ?
  union all
  select f.id from folders f join sub on f.parent_id = sub.id
)
`;

interface Statement {
  sql: string;
  bindings: string[];
}

interface VariantSpec {
  variant: UsageVariant;
  query: { from?: string; to?: string; folderId?: string };
  /** The same aggregation as the report, as one hand-written statement. */
  raw: Statement;
  /** The same answer from the pre-aggregating rewrite. */
  alt: Statement;
  expected: ModelTotals;
}

function variantSpecs(seed: SeededUsageOrg, gen: GeneratedRuns): VariantSpec[] {
  const orgId = seed.org.id;
  const folderId = seed.filterFolder.id;
  const { from, to } = MONTH_WINDOW;
  return [
    {
      variant: 'unfiltered',
      query: {},
      raw: { sql: `${SELECT}\n where r.organization_id = ?\n ${GROUP}`, bindings: [orgId] },
      alt: { sql: preAggregated('r.organization_id = ?'), bindings: [orgId] },
      expected: gen.expected.all,
    },
    {
      variant: 'month',
      query: { from, to },
      raw: {
        sql: `${SELECT}\n where r.organization_id = ? and r.at >= ? and r.at < ?\n ${GROUP}`,
        bindings: [orgId, from, to],
      },
      alt: { sql: preAggregated('r.organization_id = ? and r.at >= ? and r.at < ?'), bindings: [orgId, from, to] },
      expected: gen.expected.month,
    },
    {
      variant: 'folder',
      query: { folderId },
      raw: {
        sql: `${SUBTREE}${SELECT}\n where r.organization_id = ? and p.folder_id in (select id from sub)\n ${GROUP}`,
        bindings: [orgId, folderId, orgId],
      },
      // Runs picked by project id (the subtree's projects) rather than filtered after the join.
      alt: {
        sql:
          SUBTREE +
          preAggregated(
            'r.organization_id = ? and r.project_id in (select sp.id from projects sp ' +
              'where sp.organization_id = ? and sp.folder_id in (select id from sub))',
          ),
        bindings: [orgId, folderId, orgId, orgId],
      },
      expected: gen.expected.folder,
    },
  ];
}

async function run(): Promise<number> {
  // BENCH_USAGE_SCALE sizes this case alone (e.g. 0.1 beside a full-scale structure case in one run).
  const scale = envNumber('BENCH_USAGE_SCALE', envNumber('BENCH_SCALE', 1, 0, 1), 0, 1);
  const size = scale === 1 ? USAGE_FULL_SIZE : scaledUsageSize(scale);
  const explainAll = envSwitch('BENCH_EXPLAIN', false);
  const indexPasses = envSwitch('BENCH_USAGE_INDEXES', true) ? INDEX_PASSES : [];
  const tag = randomBytes(4).toString('hex');

  const passed: string[] = [];
  const failed: string[] = [];
  const check = (ok: boolean, what: string) => (ok ? passed : failed).push(what);

  process.stdout.write('usage: creating the scratch database… ');
  const scratch = await openScratchDb(tag, 'usage');
  held.scratch = scratch;
  const { db } = scratch;
  process.stdout.write(`${scratch.engine}, ${scratch.where}\n`);

  process.stdout.write(
    `seeding ${size.projects.toLocaleString('en-US')} projects ` +
      `in ${size.rootFolders * (size.childrenPerRoot + 1)} folders… `,
  );
  const seed = await seedUsageOrg(db, size, tag);
  process.stdout.write(`${(seed.seedMs / 1000).toFixed(1)} s\n`);

  process.stdout.write(`writing ${size.runs.toLocaleString('en-US')} runs as JSON Lines… `);
  const gen = writeUsageRuns(path.join(scratch.dataDir, 'runs.jsonl'), seed, size, tag);
  process.stdout.write(`${(gen.bytes / 1024 / 1024).toFixed(1)} MiB in ${(gen.generateMs / 1000).toFixed(1)} s\n`);

  // The app as production wires it, minus the port: info logging (to /dev/null), no response validation.
  const config: Config = benchConfig(scratch);
  const logger = createLogger({ level: 'info', destination: pino.destination({ dest: '/dev/null', sync: true }) });
  const services = createServices({ config, db, readers: scratch.readers, clock: systemClock, logger });

  // Ingest through the real path, as `hub usage ingest` runs it.
  const countOf = async (table: string) =>
    Number(rowsOf<{ n: number | string }>(await db.raw(`select count(*) as n from ${table}`))[0]?.n ?? Number.NaN);
  const ingestPath = 'services.usage.ingest (in process, as `hub usage ingest` calls it)';
  const ingest = await timedIngest(services.usage, seed.org.id, gen.file, size.runs);
  const { result, ms: ingestMs, lastLineMs } = ingest;
  const runsPerSecond = result.runs / (ingestMs / 1000);
  process.stdout.write(
    `\n  ${result.runs.toLocaleString('en-US')} runs in ${(ingestMs / 1000).toFixed(1)} s ` +
      `= ${Math.round(runsPerSecond).toLocaleString('en-US')} runs/s\n`,
  );
  check(result.runs === size.runs, `ingest reports ${result.runs} runs, file has ${size.runs}`);
  check(result.sessions === gen.sessions, `ingest reports ${result.sessions} sessions, file has ${gen.sessions}`);
  const rowsAfter = { runs: await countOf('runs'), agentSessions: await countOf('agent_sessions') };
  check(rowsAfter.runs === size.runs, `select count(*) from runs = ${rowsAfter.runs} (expected ${size.runs})`);
  check(
    rowsAfter.agentSessions === gen.sessions,
    `select count(*) from agent_sessions = ${rowsAfter.agentSessions} (expected ${gen.sessions})`,
  );
  // The file is not needed any more; the temp dir goes with the scratch database anyway.
  fs.rmSync(gen.file, { force: true });

  const { analyzed, analyzeMs } = await analyzeWhenAsked(scratch);

  const { server, origin } = await listenInProcess(services);
  held.server = server;
  const base = `${origin}/api/org/${seed.org.slug}`;
  const cookie = await login(services, seed.owner.imOpenId);

  const specs = variantSpecs(seed, gen);
  const passes: IndexPass[] = [];
  const reportToo = envSwitch('BENCH_USAGE_REPORT', true);
  const passPlan: { name: string; index: (typeof INDEX_PASSES)[number] | null }[] = reportToo
    ? [
        { name: "migrations' indexes only", index: null },
        ...indexPasses.map((index) => ({ name: `+ ${index.name} on runs (${index.columns})`, index })),
      ]
    : [];
  for (const step of passPlan) {
    let createMs: number | null = null;
    const ddl = step.index ? `create index ${step.index.name} on runs (${step.index.columns})` : null;
    process.stdout.write(`\n${step.name}\n`);
    if (ddl) {
      const started = performance.now();
      await db.raw(ddl);
      if (analyzed) await db.raw('analyze runs');
      createMs = performance.now() - started;
      process.stdout.write(`  index built in ${(createMs / 1000).toFixed(1)} s\n`);
    }
    const variants: VariantFigures[] = [];
    for (const spec of specs)
      variants.push(
        await measureVariant(db, services, base, cookie, seed, spec, step.index?.name ?? 'baseline', check),
      );
    passes.push({ name: step.name, ddl, createMs, variants });
    if (step.index) {
      await db.raw(`drop index ${step.index.name}`);
      if (analyzed) await db.raw('analyze runs');
    }
  }

  const breakdown =
    !envSwitch('BENCH_USAGE_BREAKDOWN', true) || !reportToo
      ? null
      : await measureBreakdown(db, services, base, cookie, seed, analyzed, check);

  const report: UsageBenchReport = {
    ...reportHeader(scratch, analyzed),
    size,
    seed: { rows: seed.rows, seedMs: seed.seedMs, folders: seed.folders, filterFolder: seed.filterFolder },
    file: { bytes: gen.bytes, lines: gen.lines, sessions: gen.sessions, generateMs: gen.generateMs },
    ingest: {
      path: ingestPath,
      runs: result.runs,
      sessions: result.sessions,
      ms: ingestMs,
      lastLineMs,
      runsPerSecond,
      mibPerSecond: gen.bytes / 1024 / 1024 / (ingestMs / 1000),
      rowsAfter,
    },
    analyzeMs,
    passes,
    checks: { passed, failed },
    valid: failed.length === 0,
  };
  console.log(`\n${formatUsageReport(report, { allPlans: explainAll, slowMs: SLOW_MS })}\n`);
  const scaleNote = scale === 1 ? '' : ` (BENCH_SCALE=${scale})`;
  recordTarget(
    `ingest.${scratch.engine}`,
    runsPerSecond,
    `${size.runs.toLocaleString('en-US')} runs through services.usage.ingest${scaleNote}`,
  );
  const folder = passes[0]?.variants.find((v) => v.variant === 'folder');
  if (folder)
    recordTarget(
      'usage.folder',
      folder.ratio,
      `HTTP ${folder.http.medianMs.toFixed(1)} ms vs the app's statement ${folder.raw.medianMs.toFixed(1)} ms, ` +
        `medians, ${scratch.engine}${scaleNote}`,
    );
  recordTarget(`rollups.ingest.${scratch.engine}`, runsPerSecond, `daily rollups kept in the transaction${scaleNote}`);
  const rollupReads = await measureRollupReads(db, services, seed.org.id);
  const inProcess = `in process, medians${scaleNote}`;
  recordTarget(`rollups.report.${scratch.engine}`, rollupReads.reportMs, inProcess);
  recordTarget(`rollups.breakdown.${scratch.engine}`, rollupReads.breakdownMs, inProcess);
  recordTarget(
    `rollups.month.${scratch.engine}`,
    rollupReads.monthMs,
    `${rollupReads.month.from} to ${rollupReads.month.to}, ${inProcess}`,
  );
  recordTarget(`rollups.series.${scratch.engine}`, rollupReads.seriesMs, `by model, ${inProcess}`);
  recordTarget(`rollups.member-year.${scratch.engine}`, rollupReads.memberYearMs, `groupBy=member, ${inProcess}`);
  recordTarget(`rollups.team-month.${scratch.engine}`, rollupReads.teamMonthMs, `one team, ${inProcess}`);
  let csvRows = 0;
  const csvGrowth = await measureRssGrowth(async () => {
    const answer = await read(`${base}/usage?format=csv`, cookie);
    if (answer.status !== 200) throw new Error(`the report's CSV answered ${answer.status}`);
    csvRows = answer.text.split('\r\n').filter(Boolean).length - 1;
  });
  recordTarget(
    `rollups.csv-rss.${scratch.engine}`,
    csvGrowth,
    `${csvRows.toLocaleString('en-US')} rows a download, five downloads${scaleNote}`,
  );
  recordCaseReport(`usage-${scratch.engine}`, report);
  const file = resultsFile(scratch.engine);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`figures written to ${path.relative(process.cwd(), file)}`);
  if (breakdown) {
    const breakdownFile = resultsFile(`breakdown-${scratch.engine}`);
    fs.writeFileSync(
      breakdownFile,
      `${JSON.stringify(
        { finishedAt: report.finishedAt, database: scratch.engine, size, ...breakdown, checks: { passed, failed } },
        null,
        2,
      )}\n`,
    );
    console.log(`breakdown figures written to ${path.relative(process.cwd(), breakdownFile)}`);
  }
  return report.valid ? 0 : 1;
}

async function measureVariant(
  db: Db,
  services: Services,
  base: string,
  cookie: string,
  seed: SeededUsageOrg,
  spec: VariantSpec,
  passLabel: string,
  check: (ok: boolean, what: string) => void,
): Promise<VariantFigures> {
  const params = new URLSearchParams(spec.query as Record<string, string>).toString();
  const url = `${base}/usage${params ? `?${params}` : ''}`;
  process.stdout.write(`  ${spec.variant}: `);

  // One answer of each kind, checked against the model and against each other.
  const first = await read(url, cookie);
  if (first.status !== 200) throw new Error(`GET ${url} answered ${first.status}: ${first.text.slice(0, 300)}`);
  const body = JSON.parse(first.text) as Schema<'UsageReport'>;
  const problems: string[] = [];
  compareTotals(body.totals, spec.expected, 'HTTP totals vs model', problems);
  if (body.projects.length !== spec.expected.rows)
    problems.push(`HTTP rows ${body.projects.length}, model ${spec.expected.rows}`);
  if (body.from !== (spec.query.from ?? null) || body.to !== (spec.query.to ?? null))
    problems.push(`window echoed as ${body.from} .. ${body.to}`);
  for (const [name, statement] of [
    ['raw SQL', spec.raw],
    ['pre-aggregated SQL', spec.alt],
  ] as const) {
    const rows = rowsOf<RawRow>(await db.raw(statement.sql, statement.bindings));
    compareTotals(sumRaw(rows), body.totals, `${name} totals vs HTTP totals`, problems);
    if (rows.length !== body.projects.length)
      problems.push(`${name} rows ${rows.length}, HTTP rows ${body.projects.length}`);
    const counts = new Map(rows.map((r) => [r.project_id, Number(r.run_count)]));
    const differing = body.projects.filter((p) => counts.get(p.projectId) !== p.runCount).length;
    if (differing) problems.push(`${differing} projects' runCount differ between HTTP and ${name}`);
  }
  // The raw side of the ratio is the exact statement the app runs on runs for this report (captured
  // from one service call), not a hand-written equivalent: the ratio is then the app's own overhead.
  const appReads = (await captureQueries(db, () => services.usage.report(seed.org.id, spec.query))).filter(
    (q) => isRead(q) && /\b(runs|usage_run_\w+)\b/.test(q.sql),
  );
  if (appReads.length !== 1)
    throw new Error(
      `the ${spec.variant} report ran ${appReads.length} statements on runs and their rollups, expected exactly one`,
    );
  // knex reports PostgreSQL statements with $n placeholders; raw() wants positional ? back.
  const appStatement: Statement = {
    sql: appReads[0]!.sql.replace(/\$\d+/g, '?'),
    bindings: appReads[0]!.bindings as string[],
  };
  const appRows = rowsOf<RawRow>(await db.raw(appStatement.sql, appStatement.bindings));
  compareTotals(sumRaw(appRows), body.totals, "the app's statement totals vs HTTP totals", problems);

  check(
    problems.length === 0,
    `${spec.variant} [${passLabel}]: ` +
      (problems.length
        ? problems.join('; ')
        : `HTTP = raw SQL = pre-aggregated SQL = model (${body.projects.length} rows, ${body.totals.runCount} runs)`),
  );

  let calls = 0;
  let statements = 0;
  const timing = await timeInterleaved(
    {
      http: async () => {
        let answer: Answer | undefined;
        const queries = await captureQueries(db, async () => {
          answer = await get(url, cookie);
          if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status} during timing`);
        });
        calls += 1;
        statements += queries.length;
        return answer;
      },
      service: () => services.usage.report(seed.org.id, spec.query),
      raw: () => db.raw(appStatement.sql, appStatement.bindings),
      alt: () => db.raw(spec.alt.sql, spec.alt.bindings),
    },
    TIMING,
  );
  process.stdout.write(
    `median HTTP ${timing.http.medianMs.toFixed(1)} ms, service ${timing.service.medianMs.toFixed(1)} ms, ` +
      `raw ${timing.raw.medianMs.toFixed(1)} ms, ` +
      `pre-aggregated ${timing.alt.medianMs.toFixed(1)} ms (${timing.http.n} rounds)\n`,
  );

  // Plans of the report's statement(s) on runs as one request sends them, and of the raw ones.
  const one = await captureQueries(db, () => get(url, cookie));
  const reportQueries = [
    ...new Map(one.filter((q) => isRead(q) && /\bruns\b/.test(q.sql)).map((q) => [q.sql, q])).values(),
  ];
  const plans: QueryPlan[] = [];
  for (const q of reportQueries) plans.push(await explain(db, q));

  return {
    variant: spec.variant,
    path: url.slice(base.length),
    rows: body.projects.length,
    bytes: first.bytes,
    totals: body.totals,
    statementsPerRequest: statements / calls,
    http: timing.http,
    service: timing.service,
    raw: timing.raw,
    alt: timing.alt,
    rawSql: appStatement.sql,
    altSql: spec.alt.sql,
    ratio: timing.http.medianMs / timing.raw.medianMs,
    plans,
    rawPlan: await explain(db, appStatement),
    altPlan: await explain(db, spec.alt),
  };
}

interface TimedIngest {
  result: IngestResult;
  ms: number;
  /** Time to the progress report at the file's last line (read and checked), when there is one. */
  lastLineMs: number | null;
}

/** One ingest, timed, printing its progress; a failure carries the time it took (`ms`). */
async function timedIngest(
  usage: UsageService,
  organizationId: string,
  file: string,
  runs: number,
): Promise<TimedIngest> {
  process.stdout.write(' ');
  let lastLineMs: number | null = null;
  const started = performance.now();
  try {
    const result = await usage.ingest(organizationId, file, ({ phase, lines }) => {
      if (phase === 'checked' && lines === runs) lastLineMs = performance.now() - started;
      process.stdout.write(` ${phase === 'checked' ? 'checked' : 'written'} ${Math.round(lines / 1000)}k`);
    });
    return { result, ms: performance.now() - started, lastLineMs };
  } catch (err) {
    if (err instanceof Error) Object.assign(err, { ms: performance.now() - started });
    throw err;
  }
}

function sumRaw(rows: RawRow[]): ReportTotals {
  const totals: ReportTotals = { runCount: 0, runsWithCost: 0, inputTokens: 0, outputTokens: 0, costUsd: null };
  for (const r of rows) {
    totals.runCount += Number(r.run_count);
    totals.runsWithCost += Number(r.runs_with_cost);
    totals.inputTokens += Number(r.input_tokens ?? 0);
    totals.outputTokens += Number(r.output_tokens ?? 0);
    const cost = r.cost_usd !== undefined ? r.cost_usd : r.cost_micros === null ? null : Number(r.cost_micros) / 1e6;
    if (cost !== null && Number(r.runs_with_cost) > 0) totals.costUsd = (totals.costUsd ?? 0) + Number(cost);
  }
  return totals;
}

/** Counts and tokens exactly; costs to a relative 1e-9 (the engines sum doubles in their own order). */
function compareTotals(actual: ReportTotals, expected: ReportTotals, what: string, problems: string[]): void {
  const keys = ['runCount', 'runsWithCost', 'inputTokens', 'outputTokens'] as const;
  const off = keys.filter((k) => actual[k] !== expected[k]).map((k) => `${k} ${actual[k]} ≠ ${expected[k]}`);
  const a = actual.costUsd;
  const e = expected.costUsd;
  if ((a === null) !== (e === null) || (a !== null && e !== null && Math.abs(a - e) > 1e-9 * Math.max(1, Math.abs(e))))
    off.push(`costUsd ${a} ≠ ${e}`);
  if ('runsWithoutCost' in actual) {
    const without = (actual as Schema<'UsageTotals'>).runsWithoutCost;
    if (without !== actual.runCount - actual.runsWithCost)
      off.push(`runsWithoutCost ${without} ≠ runCount − runsWithCost`);
  }
  if (off.length) problems.push(`${what}: ${off.join(', ')}`);
}

const get = (url: string, cookie: string): Promise<Answer> =>
  getJson(held.httpClient(), url, cookie, REQUEST_TIMEOUT_MS);
const read = (url: string, cookie: string) => readJson(held.httpClient(), url, cookie, REQUEST_TIMEOUT_MS);

export const usageCase: BenchCase = {
  name: 'usage',
  summary:
    'an org with 1M runs over 2k projects: ingest runs/s; ' +
    'usage report (all, one month, one folder) over HTTP vs one raw SQL statement',
  run,
  abort: release,
};

/** The breakdown's capabilities: `cap-00` … `cap-19`; the first half have a connection (a label). */
const CAPABILITIES = 20;
const LABELLED = 10;

/**
 * Three facts per run, derived from the run so the totals are reproducible: the model's tokens
 * (80 % of the run's cost), 1–7 tool calls (no cost), and 1–5 calls of one capability (20 %).
 */
const FACTS_FROM_RUNS = `insert into run_facts
  (run_id, ordinal, organization_id, project_id, at, kind, capability_id, quantity, unit, cost_usd)
select r.id, 0, r.organization_id, r.project_id, r.at, 'model', null, r.input_tokens + r.output_tokens, 'tokens',
  r.cost_usd * 0.8
  from runs r where r.organization_id = ?
union all
select r.id, 1, r.organization_id, r.project_id, r.at, 'tool', null, (r.input_tokens % 7) + 1, 'calls', null
  from runs r where r.organization_id = ?
union all
select r.id, 2, r.organization_id, r.project_id, r.at, 'capability',
  'cap-' || case when r.input_tokens % ${CAPABILITIES} < 10 then '0' else '' end || (r.input_tokens % ${CAPABILITIES}),
  (r.output_tokens % 5) + 1, 'calls', r.cost_usd * 0.2
  from runs r where r.organization_id = ?`;

/** The breakdown's two aggregations as hand-written statements; `where` filters run_facts `f`. */
const rawByKind = (
  where: string,
) => `select f.kind, count(*) as fact_count, sum(f.quantity) as quantity, sum(f.cost_usd) as cost_usd
  from run_facts f where ${where} group by f.kind`;
const rawByCapability = (
  where: string,
) => `select f.capability_id, c.label, count(*) as fact_count, sum(f.quantity) as quantity, sum(f.cost_usd) as cost_usd
  from run_facts f left join capability_connections c
    on c.organization_id = f.organization_id and c.capability_id = f.capability_id
 where ${where} and f.kind = 'capability' group by f.capability_id, c.label`;

interface BreakdownVariantFigures {
  variant: string;
  path: string;
  facts: number;
  http: TimingStats;
  service: TimingStats;
  raw: TimingStats;
  ratio: number;
  plans: QueryPlan[];
}

async function measureBreakdown(
  db: Db,
  services: Services,
  base: string,
  cookie: string,
  seed: SeededUsageOrg,
  analyzed: boolean,
  check: (ok: boolean, what: string) => void,
): Promise<{ factRows: number; insertMs: number; variants: BreakdownVariantFigures[] }> {
  const orgId = seed.org.id;
  process.stdout.write('\nbreakdown: deriving three facts per run… ');
  let started = performance.now();
  await db.raw(FACTS_FROM_RUNS, [orgId, orgId, orgId]);
  const at = new Date().toISOString();
  for (let i = 0; i < LABELLED; i++) {
    await db('capability_connections').insert({
      id: randomUUID(),
      organization_id: orgId,
      capability_id: `cap-${String(i).padStart(2, '0')}`,
      label: `Capability ${i}`,
      kind: 'http',
      endpoint_url: `https://cap-${i}.example.com`,
      status: 'ACTIVE',
      active_version: null,
      created_at: at,
      updated_at: at,
    });
  }
  if (analyzed) await db.raw('analyze run_facts');
  const insertMs = performance.now() - started;
  const factRows = Number(rowsOf<{ n: number | string }>(await db.raw('select count(*) as n from run_facts'))[0]?.n);
  process.stdout.write(`${factRows.toLocaleString('en-US')} facts in ${(insertMs / 1000).toFixed(1)} s\n`);
  // The facts went in by SQL, not through the ingest: their daily rollups are built as
  // `hub usage rebuild-rollups` builds them.
  const rebuildStarted = performance.now();
  await new RollupStore().rebuild(db, orgId);
  if (analyzed) {
    for (const level of [...RUN_LEVELS, ...FACT_LEVELS]) await db.raw(`analyze ${level.table}`);
  }
  process.stdout.write(`  rollups rebuilt in ${((performance.now() - rebuildStarted) / 1000).toFixed(1)} s\n`);

  const folderProjects = `f.project_id in (select p.id from projects p where p.organization_id = ? and p.folder_id in (
    with recursive sub(id) as (select id from folders where organization_id = ? and id = ?
      union all select fo.id from folders fo join sub on fo.parent_id = sub.id) select id from sub))`;
  const project = seed.projects[0]!.id;
  const { from, to } = MONTH_WINDOW;
  const specs: Array<{ variant: string; query: Record<string, string>; where: string; bindings: string[] }> = [
    { variant: 'unfiltered', query: {}, where: 'f.organization_id = ?', bindings: [orgId] },
    {
      variant: 'month',
      query: { from, to },
      where: 'f.organization_id = ? and f.at >= ? and f.at < ?',
      bindings: [orgId, from, to],
    },
    {
      variant: 'folder',
      query: { folderId: seed.filterFolder.id },
      where: `f.organization_id = ? and ${folderProjects}`,
      bindings: [orgId, orgId, orgId, seed.filterFolder.id],
    },
    {
      variant: 'project',
      query: { projectId: project },
      where: 'f.organization_id = ? and f.project_id = ?',
      bindings: [orgId, project],
    },
  ];
  const variants: BreakdownVariantFigures[] = [];
  for (const spec of specs) {
    const params = new URLSearchParams(spec.query).toString();
    const url = `${base}/usage/breakdown${params ? `?${params}` : ''}`;
    process.stdout.write(`  ${spec.variant}: `);
    const raw = async () => ({
      byKind: rowsOf<{
        kind: string;
        fact_count: number | string;
        quantity: number | string;
        cost_usd: number | string | null;
      }>(await db.raw(rawByKind(spec.where), spec.bindings)),
      byCapability: rowsOf<{ capability_id: string; label: string | null; fact_count: number | string }>(
        await db.raw(rawByCapability(spec.where), spec.bindings),
      ),
    });
    const answer = await read(url, cookie);
    if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    const body = JSON.parse(answer.text) as Schema<'UsageBreakdown'>;
    const expected = await raw();
    const problems: string[] = [];
    for (const row of expected.byKind) {
      const got = body.byFactKind.find((r) => r.kind === row.kind);
      if (!got || got.factCount !== Number(row.fact_count) || got.quantity !== Number(row.quantity))
        problems.push(`${row.kind}: HTTP ${JSON.stringify(got)} vs raw ${JSON.stringify(row)}`);
      else if (
        (got.costUsd === null) !== (row.cost_usd === null) ||
        // The app sums each fact's cost rounded to a micro-dollar (cost-micros.ts): at most half
        // of one apart per fact from the raw float sum.
        Math.abs((got.costUsd ?? 0) - Number(row.cost_usd ?? 0)) > 0.5e-6 * Number(row.fact_count) + 1e-9
      )
        problems.push(`${row.kind} costUsd ${got.costUsd} vs ${row.cost_usd}`);
    }
    if (body.byFactKind.length !== expected.byKind.length)
      problems.push(`byFactKind ${body.byFactKind.length} rows, raw ${expected.byKind.length}`);
    if (body.byCapability.length !== expected.byCapability.length)
      problems.push(`byCapability ${body.byCapability.length} rows, raw ${expected.byCapability.length}`);
    for (const row of expected.byCapability) {
      const got = body.byCapability.find((r) => r.capabilityId === row.capability_id);
      if (!got || got.factCount !== Number(row.fact_count) || got.label !== row.label)
        problems.push(`${row.capability_id}: HTTP ${JSON.stringify(got)} vs raw ${JSON.stringify(row)}`);
    }
    const facts = body.byFactKind.reduce((n, r) => n + r.factCount, 0);
    check(
      problems.length === 0,
      `breakdown ${spec.variant}: ` +
        (problems.length
          ? problems.slice(0, 5).join('; ')
          : `HTTP = raw SQL (${facts} facts, ${body.byCapability.length} capabilities)`),
    );

    const timing = await timeInterleaved(
      {
        http: async () => {
          const res = await get(url, cookie);
          if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status} during timing`);
          return res;
        },
        service: () => services.usage.breakdown(orgId, spec.query),
        raw,
      },
      TIMING,
    );
    process.stdout.write(
      `${facts.toLocaleString('en-US')} facts: median HTTP ${timing.http.medianMs.toFixed(1)} ms, ` +
        `service ${timing.service.medianMs.toFixed(1)} ms, ` +
        `raw statements ${timing.raw.medianMs.toFixed(1)} ms (${timing.http.n} rounds)\n`,
    );
    const one = await captureQueries(db, () => get(url, cookie));
    const plans: QueryPlan[] = [];
    for (const q of one.filter((q) => isRead(q) && /\brun_facts\b/.test(q.sql))) plans.push(await explain(db, q));
    variants.push({
      variant: spec.variant,
      path: url.slice(base.length),
      facts,
      http: timing.http,
      service: timing.service,
      raw: timing.raw,
      ratio: timing.http.medianMs / timing.raw.medianMs,
      plans,
    });
  }
  started = performance.now();
  process.stdout.write(
    '\nbreakdown, side by side (median ms):\n  variant      facts      HTTP   service       raw  HTTP/raw\n',
  );
  for (const v of variants) {
    process.stdout.write(
      `  ${v.variant.padEnd(10)} ${String(v.facts).padStart(8)} ${v.http.medianMs.toFixed(1).padStart(9)}` +
        ` ${v.service.medianMs.toFixed(1).padStart(9)} ${v.raw.medianMs.toFixed(1).padStart(9)}` +
        ` ${v.ratio.toFixed(2).padStart(9)}\n`,
    );
    for (const plan of v.plans) process.stdout.write(`    plan: ${JSON.stringify(plan).slice(0, 400)}\n`);
  }
  return { factRows, insertMs, variants };
}
