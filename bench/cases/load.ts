/**
 * The `load` case: DB-backed GETs of our service through the whole stack, compared in one run
 * with plain Express 5 and bare node:http answering the same bytes from memory.
 *
 * - Requests (bench/servers/ours.ts): GET /members (100 members, ~15 KB) and GET /explorer
 *   (12 projects) as the owner, GET /projects/{id} as a MEMBER reaching it through a team grant.
 *   Every one reads the database; the comparison servers answer the very JSON ours answered.
 * - Processes: each server in its own child, all pinned to CPU 0 with taskset; the load
 *   generator (autocannon) in another child pinned to the last CPU, so it never takes the
 *   server's core. Server CPU per request comes from /proc/<pid>/stat (every thread of the
 *   server, nothing of the loader's); RSS from /proc/<pid>/status, sampled during the load.
 * - Rounds: for each request, BENCH_ROUNDS rounds, each loading ours, Express and bare for
 *   BENCH_DURATION s one after the other (the order rotating per round); every figure is the
 *   median over the rounds and every ratio the median of the per-round ratios, so drift of a
 *   shared machine hits both sides of a ratio alike. Then ours and Express on /members at 50
 *   connections, interleaved the same way, for the p99 target.
 *
 * Environment: BENCH_DURATION (s per server per round, default 3), BENCH_ROUNDS (default 5),
 * BENCH_CONNECTIONS (default 10), BENCH_WARMUP (s per server and request, default 2),
 * BENCH_PROFILE=ours|express|bare (write a V8 CPU profile of that server), DATABASE_URL (run
 * ours on PostgreSQL instead of a temp SQLite file), BENCH_BASELINE=<checkout> or
 * <name>=<checkout>,… (also load our server from each of those checkouts in the same rounds: an
 * A/B of a change, ours/<name>).
 * Returns 1 when measured requests failed or an answer was wrong; the target verdicts are
 * printed, not turned into an exit code, because the figures vary with the machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hubNodeFlags, ServerChild } from '../lib/child.js';
import { benchBaselines, benchDatabaseUrl, envChoice, envInteger, type Baseline } from '../lib/env.js';
import { Loader, type LoaderReply } from '../lib/loader.js';
import { cpuMicrosOf, cpuPlan, pin, rssMbOf } from '../lib/proc.js';
import type { LoadTarget } from '../lib/protocol.js';
import { recordCaseReport, recordTarget } from '../lib/targets.js';
import type { BenchCase } from './case.js';

const SERVER_NAMES = ['ours', 'express', 'bare'] as const;
/** Ours, the references, or a baseline: our server from another checkout (BENCH_BASELINE). */
type ServerName = string;
const PROFILE_DIR = path.join(os.tmpdir(), 'hub-bench-profiles');
const HIGH_CONNECTIONS = 50;

const OWN_CHECKOUT = fileURLToPath(new URL('../..', import.meta.url));

/** Where a server's entry is: ours and the references in this checkout, a baseline's in its own. */
const entry = (name: ServerName, baseline: Baseline | undefined): URL =>
  baseline
    ? new URL(`file://${path.join(baseline.checkout, 'bench/servers/ours.ts')}`)
    : new URL(`../servers/${name}.ts`, import.meta.url);

/** One server loaded once with one request. */
export interface RoundFigures {
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  cpuMicrosPerRequest: number;
  peakRssMb: number;
  non2xx: number;
  errors: number;
}

/** Medians over the rounds of one server and request. */
export interface ServerFigures {
  name: ServerName;
  rounds: RoundFigures[];
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  cpuMicrosPerRequest: number;
  peakRssMb: number;
}

export interface PairedRatios {
  reqPerSec: number;
  cpuPerRequest: number;
  p99: number;
}

export interface RequestFigures {
  name: string;
  path: string;
  bodyBytes: number;
  connections: number;
  servers: Record<ServerName, ServerFigures>;
  /** Medians of the per-round ratios ours ÷ other. */
  oursOverExpress: PairedRatios;
  oursOverBare: PairedRatios;
  /** Ours ÷ each baseline, and each baseline ÷ Express, by the baseline's name. */
  oursOverBaselines: Record<string, PairedRatios>;
  baselinesOverExpress: Record<string, PairedRatios>;
}

const median = (values: readonly number[]): number => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Every process started and not yet stopped, so an error or Ctrl-C leaves none behind. */
const running = new Set<ServerChild>();
let loader: Loader | undefined;
let answersDir: string | undefined;

async function stopAll(): Promise<void> {
  const children = [...running];
  running.clear();
  loader?.stop();
  loader = undefined;
  await Promise.all(children.map((child) => child.stop()));
  if (answersDir) fs.rmSync(answersDir, { recursive: true, force: true });
  answersDir = undefined;
}

/** Fetches once and checks our answer: a benchmark of a 401 or 404 would measure the error path. */
async function fetchAnswer(server: ServerChild, target: LoadTarget): Promise<string> {
  const response = await fetch(server.baseUrl + target.path, {
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  const context = `${target.method ?? 'GET'} ${target.path} on the ${server.name} server`;
  if (response.status !== 200) throw new Error(`${context} answered ${response.status}: ${text.slice(0, 300)}`);
  if (!response.headers.get('content-type')?.startsWith('application/json'))
    throw new Error(`${context} answered content-type ${response.headers.get('content-type')}`);
  const body = JSON.parse(text) as Record<string, unknown>;
  const { listKey, items, id } = target.expect;
  if (listKey !== undefined) {
    const list = body[listKey];
    if (!Array.isArray(list) || list.length !== items)
      throw new Error(
        `${context}: ${listKey} holds ${Array.isArray(list) ? list.length : 'no list'}, expected ${items}`,
      );
  }
  if (id !== undefined && body.id !== id) throw new Error(`${context} answered id ${String(body.id)}, expected ${id}`);
  const { decision } = target.expect;
  if (decision !== undefined && body.decision !== decision)
    throw new Error(`${context} answered ${text.slice(0, 300)}, expected the decision ${decision}`);
  return text;
}

async function run(): Promise<number> {
  const warmupSec = envInteger('BENCH_WARMUP', 2, 0, 120);
  const durationSec = envInteger('BENCH_DURATION', 3, 1, 600);
  const roundCount = envInteger('BENCH_ROUNDS', 5, 1, 100);
  const connections = envInteger('BENCH_CONNECTIONS', 10, 1, 1000);
  const profile = envChoice('BENCH_PROFILE', SERVER_NAMES);
  const baselines = benchBaselines();
  const cpus = cpuPlan();
  const problems: string[] = [];

  const start = async (name: ServerName, args: string[]): Promise<ServerChild> => {
    process.stdout.write(`${name}: starting… `);
    // Ours (and each baseline checkout's) with hub's own node flags; Express and bare with node's defaults.
    const baseline = baselines.find((b) => b.name === name);
    const checkout = baseline?.checkout ?? (name === 'ours' ? OWN_CHECKOUT : undefined);
    const ownFlags = checkout ? hubNodeFlags(checkout) : [];
    const nodeFlags = [...ownFlags, ...(name === profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [])];
    const child = await ServerChild.start(name, entry(name, baseline), { args, nodeFlags });
    running.add(child);
    pin(child.pid, cpus.server);
    process.stdout.write(`pid ${child.pid}\n`);
    return child;
  };

  try {
    const ours = await start('ours', []);
    const targets = ours.targets;
    if (!targets?.length) throw new Error('our server did not say what to request');
    const texts: Record<string, string> = {};
    for (const target of targets) texts[target.path] = await fetchAnswer(ours, target);
    answersDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-bench-answers-'));
    const answersFile = path.join(answersDir, 'answers.json');
    fs.writeFileSync(answersFile, JSON.stringify(texts));
    const servers: Partial<Record<ServerName, ServerChild>> = {
      ours,
      express: await start('express', [answersFile]),
      bare: await start('bare', [answersFile]),
    };
    /** Each baseline seeds its own organization (another slug and sessions): its requests, by name. */
    const baselineTargets = new Map<ServerName, Map<string, LoadTarget>>();
    for (const { name } of baselines) {
      const baseline = await start(name, []);
      servers[name] = baseline;
      const own = new Map<string, LoadTarget>();
      for (const target of baseline.targets ?? []) {
        await fetchAnswer(baseline, target);
        own.set(target.name, target);
      }
      baselineTargets.set(name, own);
    }
    const targetFor = (name: ServerName, target: LoadTarget): LoadTarget =>
      baselineTargets.get(name)?.get(target.name) ?? target;
    for (const name of ['express', 'bare'] as const)
      for (const target of targets) {
        const text = await fetchAnswer(servers[name]!, target);
        if (text !== texts[target.path]) throw new Error(`the ${name} server answers ${target.path} with other bytes`);
      }
    loader = Loader.start(cpus.loader);
    console.log(
      cpus.pinned
        ? `servers pinned to CPU ${cpus.server}, load generator to CPU ${cpus.loader}`
        : 'NOT PINNED (one CPU or no taskset): server and load generator share the CPUs',
    );

    const loadOnce = async (server: ServerChild, target: LoadTarget, conns: number, sec: number) => {
      const pid = server.pid;
      let peakRssMb = rssMbOf(pid);
      const sampler = setInterval(() => {
        peakRssMb = Math.max(peakRssMb, rssMbOf(pid));
      }, 200);
      const cpuBefore = cpuMicrosOf(pid);
      let reply: LoaderReply;
      try {
        reply = await loader!.load({
          url: server.baseUrl + target.path,
          headers: target.headers,
          method: target.method,
          body: target.body,
          connections: conns,
          durationSec: sec,
        });
      } finally {
        clearInterval(sampler);
      }
      const cpu = cpuMicrosOf(pid) - cpuBefore;
      peakRssMb = Math.max(peakRssMb, rssMbOf(pid));
      const figures: RoundFigures = {
        requests: reply.completed,
        reqPerSec: reply.completed / reply.elapsedSec,
        p50Ms: reply.p50Ms,
        p99Ms: reply.p99Ms,
        cpuMicrosPerRequest: reply.completed > 0 ? cpu / reply.completed : Number.NaN,
        peakRssMb,
        non2xx: reply.non2xx,
        errors: reply.errors,
      };
      if (reply.non2xx > 0)
        problems.push(`${server.name} ${target.path}: ${reply.non2xx} non-2xx (${JSON.stringify(reply.statusCodes)})`);
      if (reply.errors > 0) problems.push(`${server.name} ${target.path}: ${reply.errors} requests without an answer`);
      return figures;
    };

    /** Warm-up, then interleaved rounds of the named servers on one request. */
    const compare = async (
      target: LoadTarget,
      names: readonly ServerName[],
      conns: number,
    ): Promise<RequestFigures> => {
      process.stdout.write(`${target.name} (${conns} connections): warm-up`);
      for (const name of names) await loadOnce(servers[name]!, targetFor(name, target), conns, warmupSec);
      const rounds = new Map<ServerName, RoundFigures[]>(names.map((n) => [n, []]));
      for (let r = 0; r < roundCount; r++) {
        process.stdout.write(` ${r + 1}`);
        // Rotating the order: no server always runs right after another's load.
        for (let i = 0; i < names.length; i++) {
          const name = names[(i + r) % names.length]!;
          rounds.get(name)!.push(await loadOnce(servers[name]!, targetFor(name, target), conns, durationSec));
        }
      }
      process.stdout.write('\n');
      const figures: Record<ServerName, ServerFigures> = {};
      for (const [name, list] of rounds)
        figures[name] = {
          name,
          rounds: list,
          reqPerSec: median(list.map((f) => f.reqPerSec)),
          p50Ms: median(list.map((f) => f.p50Ms)),
          p99Ms: median(list.map((f) => f.p99Ms)),
          cpuMicrosPerRequest: median(list.map((f) => f.cpuMicrosPerRequest)),
          peakRssMb: Math.max(...list.map((f) => f.peakRssMb)),
        };
      const paired = (one: ServerName, other: ServerName, pick: (f: RoundFigures) => number): number => {
        const a = rounds.get(one);
        const b = rounds.get(other);
        if (!a || !b) return Number.NaN;
        return median(a.map((f, i) => pick(f) / pick(b[i]!)));
      };
      const ratios = (other: ServerName, one: ServerName = 'ours'): PairedRatios => ({
        reqPerSec: paired(one, other, (f) => f.reqPerSec),
        cpuPerRequest: paired(one, other, (f) => f.cpuMicrosPerRequest),
        p99: paired(one, other, (f) => f.p99Ms),
      });
      return {
        name: target.name,
        path: target.path,
        bodyBytes: Buffer.byteLength(texts[target.path]!),
        connections: conns,
        servers: figures,
        oursOverExpress: ratios('express'),
        oursOverBare: ratios('bare'),
        oursOverBaselines: Object.fromEntries(baselines.map(({ name }) => [name, ratios(name)])),
        baselinesOverExpress: Object.fromEntries(baselines.map(({ name }) => [name, ratios('express', name)])),
      };
    };

    const results: RequestFigures[] = [];
    const baselineNames = baselines.map((b) => b.name);
    for (const target of targets) results.push(await compare(target, [...SERVER_NAMES, ...baselineNames], connections));
    const members = targets.find((t) => t.name === 'members')!;
    const high = await compare(members, ['ours', 'express', ...baselineNames], HIGH_CONNECTIONS);
    // Admission is asked on every run: its latency under concurrency is what a runtime waits.
    const admission = targets.find((t) => t.name === 'admission')!;
    const admissionHigh = await compare(admission, ['ours', 'express', ...baselineNames], HIGH_CONNECTIONS);

    console.log(
      `\n${formatLoad([...results, high, admissionHigh], { warmupSec, durationSec, roundCount, pinned: cpus.pinned })}`,
    );
    const byName = new Map(results.map((r) => [r.name, r]));
    const how = `median of ${roundCount} paired rounds, ${connections} connections`;
    for (const name of ['members', 'explorer'] as const) {
      const r = byName.get(name)!;
      recordTarget(`${name}.ratio`, r.oursOverExpress.reqPerSec, how);
      recordTarget(`${name}.cpu`, r.servers.ours!.cpuMicrosPerRequest, `${how}; Express ${fmt(r.servers.express!)}`);
      recordTarget(`${name}.cpuVsExpress`, r.oursOverExpress.cpuPerRequest, `${how}; the target's 250 µs over 85 µs`);
    }
    const [oursHigh, expressHigh] = [high.servers.ours!, high.servers.express!];
    recordTarget('admission.ratio', byName.get('admission')!.oursOverExpress.reqPerSec, how);
    const [oursAdmission, expressAdmission] = [admissionHigh.servers.ours!, admissionHigh.servers.express!];
    recordTarget(
      'admission.p99.50',
      oursAdmission.p99Ms / expressAdmission.p99Ms,
      `ours ${oursAdmission.p99Ms.toFixed(1)} ms vs Express ${expressAdmission.p99Ms.toFixed(1)} ms ` +
        `(medians of ${roundCount})`,
    );
    recordTarget(
      'p99.50',
      oursHigh.p99Ms / expressHigh.p99Ms,
      `ours ${oursHigh.p99Ms.toFixed(1)} ms vs Express ${expressHigh.p99Ms.toFixed(1)} ms (medians of ${roundCount})`,
    );
    const peak = Math.max(...[...results, high, admissionHigh].map((r) => r.servers.ours!.peakRssMb));
    recordTarget('rss', peak, 'peak VmRSS sampled every 200 ms over every load of ours');
    const database = benchDatabaseUrl() ? 'postgresql' : 'sqlite';
    recordCaseReport('load', {
      node: process.version,
      database,
      params: { warmupSec, durationSec, roundCount, connections, pinned: cpus.pinned },
      requests: [...results, high, admissionHigh],
      problems,
    });
    if (problems.length) console.log(['RESULT INVALID:', ...problems.map((p) => `  - ${p}`)].join('\n'));
    if (profile)
      console.log(`CPU profile of the ${profile} server written to ${PROFILE_DIR} (main thread: *.0.001.cpuprofile)`);
    return problems.length ? 1 : 0;
  } finally {
    await stopAll();
  }
}

const fmt = (s: ServerFigures): string => `${s.cpuMicrosPerRequest.toFixed(0)} µs`;

function formatLoad(
  results: readonly RequestFigures[],
  p: { warmupSec: number; durationSec: number; roundCount: number; pinned: boolean },
): string {
  const header = ['request', 'conns', 'bytes', 'server', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'RSS MB'];
  const rows: string[][] = [];
  for (const r of results)
    for (const s of Object.values(r.servers))
      rows.push([
        r.name,
        String(r.connections),
        String(r.bodyBytes),
        s.name,
        s.reqPerSec.toFixed(0),
        s.p50Ms.toFixed(2),
        s.p99Ms.toFixed(2),
        s.cpuMicrosPerRequest.toFixed(0),
        s.peakRssMb.toFixed(0),
      ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 || i === 3 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const ratioText = (other: string, r: PairedRatios): string =>
    `ours/${other} req/s ×${r.reqPerSec.toFixed(2)}, CPU ×${r.cpuPerRequest.toFixed(2)}, p99 ×${r.p99.toFixed(2)}`;
  const ratios = results.flatMap((r) => [
    `${r.name} @${r.connections}: ${ratioText('express', r.oursOverExpress)}` +
      (Number.isFinite(r.oursOverBare.reqPerSec) ? `; ours/bare req/s ×${r.oursOverBare.reqPerSec.toFixed(2)}` : ''),
    ...Object.entries(r.oursOverBaselines).map(
      ([name, b]) =>
        `  ${ratioText(name, b)}; ${name}/express req/s ×${r.baselinesOverExpress[name]!.reqPerSec.toFixed(2)}`,
    ),
  ]);
  return [
    `${p.roundCount} rounds × ${p.durationSec} s per server (after ${p.warmupSec} s warm-up), medians; ` +
      (p.pinned ? 'servers and load generator on separate CPUs' : 'NOT pinned'),
    '',
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    'paired ratios (median of per-round ratios):',
    ...ratios.map((r) => `  ${r}`),
  ].join('\n');
}

export const loadCase: BenchCase = {
  name: 'load',
  summary:
    'DB-backed GETs (/members 100, /explorer 12, /projects/{id} as a member) vs plain Express and bare ' +
    'node:http answering the same bytes; pinned CPUs, paired rounds',
  run,
  abort: stopAll,
};
