import type { BenchParams, ServerFigures } from './measure.js';

/** The issue's target: our endpoint serves at least half the requests per second plain Express does. */
export const TARGET_OURS_OVER_EXPRESS = 0.5;

export interface Ratios {
  /** ours ÷ other for req/s (higher is better for ours) and for CPU µs/request (lower is better). */
  reqPerSec: number;
  cpuPerRequest: number;
}

export interface BenchReport {
  finishedAt: string;
  node: string;
  params: BenchParams & { bodyBytes: number; path: string; database: 'sqlite' | 'postgresql' };
  servers: { ours: ServerFigures; express: ServerFigures; bare: ServerFigures };
  ratios: { oursOverExpress: Ratios; oursOverBare: Ratios };
  target: { oursOverExpressReqPerSec: number; met: boolean };
  /** False when any measured request failed: then the figures describe an error path. */
  valid: boolean;
  problems: string[];
}

export function buildReport(params: BenchReport['params'], servers: BenchReport['servers']): BenchReport {
  const ratio = (a: ServerFigures, b: ServerFigures): Ratios => ({
    reqPerSec: a.reqPerSec / b.reqPerSec,
    cpuPerRequest: a.cpuMicrosPerRequest / b.cpuMicrosPerRequest,
  });
  const oursOverExpress = ratio(servers.ours, servers.express);
  const problems = Object.values(servers).flatMap((s) => {
    const issues: string[] = [];
    if (s.non2xx > 0)
      issues.push(`${s.name}: ${s.non2xx} non-2xx answers (status counts ${JSON.stringify(s.statusCodes)})`);
    if (s.errors > 0) issues.push(`${s.name}: ${s.errors} requests failed without an answer (errors/timeouts)`);
    if (s.requests === 0) issues.push(`${s.name}: no request completed`);
    return issues;
  });
  return {
    finishedAt: new Date().toISOString(),
    node: process.version,
    params,
    servers,
    ratios: { oursOverExpress, oursOverBare: ratio(servers.ours, servers.bare) },
    target: {
      oursOverExpressReqPerSec: TARGET_OURS_OVER_EXPRESS,
      met: oursOverExpress.reqPerSec >= TARGET_OURS_OVER_EXPRESS,
    },
    valid: problems.length === 0,
    problems,
  };
}

export function formatReport(report: BenchReport): string {
  const { params, servers, ratios } = report;
  const header = ['server', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'requests', 'non-2xx', 'errors'];
  const rows = Object.values(servers).map((s) => [
    s.name,
    s.reqPerSec.toFixed(0),
    s.p50Ms.toFixed(2),
    s.p99Ms.toFixed(2),
    s.cpuMicrosPerRequest.toFixed(0),
    String(s.requests),
    String(s.non2xx),
    String(s.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  // The name column reads left-aligned, figures right-aligned.
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const ratioLine = (label: string, r: Ratios) =>
    `${label.padEnd(14)} req/s ×${r.reqPerSec.toFixed(2)}   CPU per request ×${r.cpuPerRequest.toFixed(2)}`;
  const verdict = report.target.met ? 'met' : 'NOT met';

  return [
    `GET ${params.path} (${params.bodyBytes}-byte JSON body, ${params.database}), ${params.connections} connections, ` +
      `${params.warmupSec} s warm-up + ${params.durationSec} s measured per server`,
    '',
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    ratioLine('ours/express', ratios.oursOverExpress),
    ratioLine('ours/bare', ratios.oursOverBare),
    '',
    ...(report.valid
      ? []
      : ['RESULT INVALID (failed requests were measured):', ...report.problems.map((p) => `  - ${p}`), '']),
    `ours/express req/s ratio: ${ratios.oursOverExpress.reqPerSec.toFixed(2)} ` +
      `(target >= ${TARGET_OURS_OVER_EXPRESS.toFixed(2)}: ${verdict})${report.valid ? '' : ' [INVALID RUN]'}`,
  ].join('\n');
}
