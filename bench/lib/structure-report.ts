import { int, ms, table } from './report-format.js';
import type { QueryPlan } from './query-plan.js';
import type { StructureSize } from './seed-structure.js';
import type { TimingStats } from './timing.js';

/** One endpoint timed over HTTP, with the answer it gave and the SQL it cost. */
export interface EndpointFigures {
  operation: string;
  path: string;
  actor: 'owner' | 'member';
  timing: TimingStats;
  /** Size of the answer: JSON bytes and the number of list items (or 1 for a single object). */
  bytes: number;
  items: number;
  itemsLabel: string;
  /** SQL statements per request, averaged over warm-up and timed calls (session and membership caches included). */
  statementsPerRequest: number;
  /** Median above this counts as slow: the plans are printed and the report says so. */
  slowAboveMs: number;
  slow: boolean;
  /** Plans of the distinct read statements of one request. */
  plans: QueryPlan[];
}

/** One stage of an operation timed on its own, in process, to split DB from JSON cost. */
export interface StageFigures {
  operation: string;
  stage: string;
  timing: TimingStats;
}

export interface StructureReport {
  finishedAt: string;
  node: string;
  database: 'sqlite' | 'postgresql';
  where: string;
  /** Whether planner statistics were gathered (ANALYZE) after seeding. */
  analyzed: boolean;
  size: StructureSize;
  rows: Record<string, number>;
  seedMs: number;
  analyzeMs: number | null;
  seeded: { orgSlug: string; memberActiveTeams: number; memberProjects: number; targetProjectId: string };
  endpoints: EndpointFigures[];
  stages: StageFigures[];
  checks: { passed: string[]; failed: string[] };
  /** False when a sanity check failed: then the figures do not describe the intended data. */
  valid: boolean;
}

const kb = (bytes: number) => (bytes >= 10_240 ? `${(bytes / 1024).toFixed(0)} KiB` : `${bytes} B`);

/** Plans are printed for slow endpoints, or for all of them with `allPlans` (BENCH_EXPLAIN=1). */
export function formatStructureReport(report: StructureReport, options: { allPlans: boolean }): string {
  const { size, rows } = report;
  const out: string[] = [];
  out.push(
    `Organization at scale on ${report.database}` +
      (report.analyzed ? ' (ANALYZEd after seeding)' : ' (no ANALYZE, as the app runs it)') +
      ': ' +
      `${int(size.projects)} projects in ${int(size.rootFolders * (size.childrenPerRoot + 1))} folders, ` +
      `${int(size.members)} members, ` +
      `${int(size.teams)} teams, ${int(size.grants)} grants, ${int(size.bindings)} bindings ` +
      '(+ ~1 % archived/revoked rows)',
    `seeded ${int(Object.values(rows).reduce((a, b) => a + b, 0))} rows in ${(report.seedMs / 1000).toFixed(1)} s` +
      (report.analyzeMs !== null ? `, ANALYZE ${(report.analyzeMs / 1000).toFixed(1)} s` : '') +
      ` (${Object.entries(rows)
        .filter(([, n]) => n > 1)
        .map(([t, n]) => `${t} ${int(n)}`)
        .join(', ')})`,
    `member: in ${report.seeded.memberActiveTeams} active teams, ` +
      `reads ${int(report.seeded.memberProjects)} projects; ` +
      `project detail target reached through a team only`,
    '',
  );

  out.push(
    ...table(
      [
        'request to hub serve (sequential, loopback)',
        'as',
        'n',
        'min ms',
        'median ms',
        'p95 ms',
        'items',
        'bytes',
        'SQL/req',
        '',
      ],
      report.endpoints.map((e) => [
        `${e.operation.padEnd(14)} GET ` +
          e.path.replace(/^\/api\/org\/[^/]+/, '…').replace(/[0-9a-f]{8}-[0-9a-f-]{27}$/, '{id}'),
        e.actor,
        String(e.timing.n),
        ms(e.timing.minMs),
        ms(e.timing.medianMs),
        ms(e.timing.p95Ms),
        `${int(e.items)} ${e.itemsLabel}`,
        kb(e.bytes),
        e.statementsPerRequest.toFixed(1),
        e.slow ? `SLOW (> ${e.slowAboveMs} ms)` : '',
      ]),
      2,
    ),
  );

  const byOperation = new Map<string, StageFigures[]>();
  for (const s of report.stages) byOperation.set(s.operation, [...(byOperation.get(s.operation) ?? []), s]);
  for (const [operation, stages] of byOperation) {
    const http = report.endpoints.find(
      (e) => e.operation === operation && e.actor === (operation === 'listMyProjects' ? 'member' : 'owner'),
    );
    const base = http?.timing.medianMs ?? Number.NaN;
    out.push('', `${operation}: where the time goes (each stage timed alone, in process)`);
    out.push(
      ...table(
        ['stage', 'n', 'median ms', 'p95 ms', 'of HTTP median'],
        [
          ...stages.map((s) => [
            s.stage,
            String(s.timing.n),
            ms(s.timing.medianMs),
            ms(s.timing.p95Ms),
            `${((s.timing.medianMs / base) * 100).toFixed(0)} %`,
          ]),
          ...(http
            ? [
                [
                  'whole HTTP request (server + loopback + client read)',
                  String(http.timing.n),
                  ms(http.timing.medianMs),
                  ms(http.timing.p95Ms),
                  '100 %',
                ],
              ]
            : []),
        ],
      ).map((l) => `  ${l}`),
    );
  }

  for (const e of report.endpoints.filter((x) => options.allPlans || x.slow)) {
    out.push('', `query plans: ${e.operation} as ${e.actor}`);
    for (const p of e.plans) out.push(`  ${p.sql}`, ...p.plan.map((l) => `    ${l}`));
  }

  out.push('', `checks: ${report.checks.passed.length} passed, ${report.checks.failed.length} failed`);
  for (const f of report.checks.failed) out.push(`  FAILED: ${f}`);
  if (!report.valid) out.push('RESULT INVALID: the answers did not match the seeded data');
  return out.join('\n');
}
