import { int, ms, table } from './report-format.js';
import type { QueryPlan } from './query-plan.js';
import type { UsageSize } from './seed-usage.js';
import type { CpuTimingStats } from './timing.js';

export type UsageVariant = 'unfiltered' | 'month' | 'folder';

export interface ReportTotals {
  runCount: number;
  runsWithCost: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

/** One report variant in one index pass: over HTTP, in process, and as one raw statement. */
export interface VariantFigures {
  variant: UsageVariant;
  /** The HTTP path after /api/org/{slug}, query included. */
  path: string;
  /** Report rows (projects) and answer size. */
  rows: number;
  bytes: number;
  totals: ReportTotals;
  /** SQL statements per HTTP request, averaged over the timed calls (session upkeep included). */
  statementsPerRequest: number;
  /** GET over loopback: routing, auth, the report (queries, mapping, sorting), JSON, the client's read. */
  http: CpuTimingStats;
  /** services.usage.report in process: the same queries, mapping and sorting, no HTTP or JSON. */
  service: CpuTimingStats;
  /** The exact statement on runs the app sends (captured), through db.raw: no HTTP, no mapping. */
  raw: CpuTimingStats;
  /** The pre-aggregating rewrite through db.raw. */
  alt: CpuTimingStats;
  rawSql: string;
  altSql: string;
  /** http.median / raw.median. */
  ratio: number;
  /** Plans of the report's statement(s) on runs, as one HTTP request sent them, and of the two raw statements. */
  plans: QueryPlan[];
  rawPlan: QueryPlan;
  altPlan: QueryPlan;
}

/** One round of measurements; every pass after the first adds one index to the scratch database. */
export interface IndexPass {
  name: string;
  /** The index created before this pass (and dropped after it); null for the migrations' indexes only. */
  ddl: string | null;
  createMs: number | null;
  variants: VariantFigures[];
}

export interface UsageBenchReport {
  finishedAt: string;
  node: string;
  database: 'sqlite' | 'postgresql';
  where: string;
  analyzed: boolean;
  size: UsageSize;
  seed: {
    rows: Record<string, number>;
    seedMs: number;
    folders: number;
    filterFolder: { id: string; name: string; subtreeFolders: number; subtreeProjects: number };
  };
  file: { bytes: number; lines: number; sessions: number; generateMs: number };
  ingest: {
    /** What loaded the file: the real ingest path, called in process. */
    path: string;
    runs: number;
    sessions: number;
    ms: number;
    /** Time to the progress report at the file's last line (read and checked), when it ends on one. */
    lastLineMs: number | null;
    runsPerSecond: number;
    mibPerSecond: number;
    rowsAfter: { runs: number; agentSessions: number };
  };
  analyzeMs: number | null;
  passes: IndexPass[];
  checks: { passed: string[]; failed: string[] };
  valid: boolean;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const size3 = (t: CpuTimingStats) => `${ms(t.minMs)} / ${ms(t.medianMs)} / ${ms(t.p95Ms)}`;

/**
 * Plans are printed with `allPlans` (BENCH_EXPLAIN=1), and for a pass whose unfiltered HTTP median is above
 * `slowMs`.
 */
export function formatUsageReport(report: UsageBenchReport, options: { allPlans: boolean; slowMs: number }): string {
  const { size, ingest, file } = report;
  const out: string[] = [];
  out.push(
    `Usage at scale on ${report.database}` +
      (report.analyzed ? ' (ANALYZEd after ingest)' : ' (no ANALYZE, as the app runs it)') +
      ': ' +
      `${int(size.runs)} runs in ${int(file.sessions)} sessions over ${int(size.projects)} projects, ` +
      `${int(report.seed.folders)} folders ` +
      `(${size.rootFolders} roots × ${size.childrenPerRoot} children + 1 archived)`,
    `seeded org, owner, folders, projects in ${(report.seed.seedMs / 1000).toFixed(1)} s; ` +
      `JSONL file ${mib(file.bytes)} (${int(file.lines)} lines) generated in ${(file.generateMs / 1000).toFixed(1)} s`,
    `ingest through ${ingest.path}: ${int(ingest.runs)} runs, ${int(ingest.sessions)} sessions ` +
      `in ${(ingest.ms / 1000).toFixed(1)} s ` +
      `= ${int(Math.round(ingest.runsPerSecond))} runs/s, ` +
      `${ingest.mibPerSecond.toFixed(1)} MiB/s of JSONL` +
      (ingest.lastLineMs !== null
        ? `; last line read at ${(ingest.lastLineMs / 1000).toFixed(1)} s, then ` +
          `${((ingest.ms - ingest.lastLineMs) / 1000).toFixed(1)} s to the commit (last writes, sessions)`
        : ''),
    `  afterwards: runs ${int(ingest.rowsAfter.runs)}, agent_sessions ${int(ingest.rowsAfter.agentSessions)}` +
      (report.analyzeMs !== null ? `; ANALYZE ${(report.analyzeMs / 1000).toFixed(1)} s` : ''),
    `folder variant: root folder "${report.seed.filterFolder.name}", ` +
      `${report.seed.filterFolder.subtreeFolders} folders and ` +
      `${report.seed.filterFolder.subtreeProjects} projects in its subtree`,
  );

  out.push(
    '',
    'Each round calls, one after another: GET over loopback (HTTP), ' +
      "services.usage.report in process (service), the report's",
    'own statement on runs (captured from a service call) through db.raw (raw), ' +
      "and its pre-aggregating rewrite (pre-agg). cpu = this process's CPU",
    'time per call' +
      (report.database === 'postgresql'
        ? " (the PostgreSQL server's share not included)"
        : " (SQLite runs in this process: the server's whole cost; the HTTP client runs in another)") +
      '.',
  );
  for (const pass of report.passes) {
    out.push(
      '',
      pass.name +
        (pass.createMs !== null
          ? ` (index built in ${(pass.createMs / 1000).toFixed(1)} s, dropped after the pass)`
          : ''),
    );
    out.push(
      ...table(
        [
          'variant',
          'rows',
          'rounds',
          'HTTP min / median / p95 ms',
          'service med',
          'raw min / median / p95 ms',
          'HTTP / raw',
          'pre-agg med',
          'raw / pre-agg',
          'cpu HTTP',
          'cpu raw',
          'cpu pre-agg',
          'SQL/req',
          'bytes',
        ],
        pass.variants.map((v) => [
          v.variant,
          int(v.rows),
          String(v.http.n),
          size3(v.http),
          ms(v.service.medianMs),
          size3(v.raw),
          `${v.ratio.toFixed(2)}×`,
          ms(v.alt.medianMs),
          `${(v.raw.medianMs / v.alt.medianMs).toFixed(1)}×`,
          ms(v.http.cpuMedianMs),
          ms(v.raw.cpuMedianMs),
          ms(v.alt.cpuMedianMs),
          v.statementsPerRequest.toFixed(1),
          `${Math.round(v.bytes / 1024)} KiB`,
        ]),
      ).map((l) => `  ${l}`),
    );
  }

  if (report.passes.length > 1) {
    const [base, ...rest] = report.passes;
    out.push('', "index effect, each index alone (median ms, migrations' indexes → with the index)");
    const change = (before: number, after: number) => `${ms(before)} → ${ms(after)} (${(after / before).toFixed(2)}×)`;
    for (const pass of rest) {
      out.push(`  ${pass.name}`);
      for (const v of pass.variants) {
        const b = base!.variants.find((x) => x.variant === v.variant);
        if (!b) continue;
        out.push(
          `    ${v.variant.padEnd(10)}  HTTP ${change(b.http.medianMs, v.http.medianMs)}` +
            `   raw ${change(b.raw.medianMs, v.raw.medianMs)}` +
            `   pre-agg ${change(b.alt.medianMs, v.alt.medianMs)}` +
            `   (cpu raw ${change(b.raw.cpuMedianMs, v.raw.cpuMedianMs)}, ` +
            `pre-agg ${change(b.alt.cpuMedianMs, v.alt.cpuMedianMs)})`,
        );
      }
    }
  }

  for (const pass of report.passes) {
    const unfiltered = pass.variants.find((v) => v.variant === 'unfiltered');
    const slow = (unfiltered?.http.medianMs ?? 0) > options.slowMs;
    if (!options.allPlans && !slow) continue;
    out.push('', `query plans, ${pass.name}${slow ? ` (unfiltered HTTP median above ${options.slowMs} ms)` : ''}`);
    for (const v of pass.variants) {
      if (!options.allPlans && v.variant !== 'unfiltered') continue;
      for (const p of v.plans) out.push(`  [${v.variant}, report query] ${p.sql}`, ...p.plan.map((l) => `    ${l}`));
      for (const [what, p] of [
        ['raw statement', v.rawPlan],
        ['pre-aggregated statement', v.altPlan],
      ] as const) {
        out.push(`  [${v.variant}, ${what}] ${p.sql.replace(/\s+/g, ' ')}`, ...p.plan.map((l) => `    ${l}`));
      }
    }
  }

  out.push('', `checks: ${report.checks.passed.length} passed, ${report.checks.failed.length} failed`);
  for (const f of report.checks.failed) out.push(`  FAILED: ${f}`);
  if (!report.valid) out.push('RESULT INVALID: a check failed (see above)');
  return out.join('\n');
}
