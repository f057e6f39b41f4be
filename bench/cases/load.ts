/**
 * The `load` case: GET /api/org/{slug} of our service through the whole stack, compared in one
 * run with plain Express 5 and bare node:http answering a JSON body of the same size.
 *
 * Each server runs in its own child process so its CPU time per request is measured apart from
 * the load generator (this process). The servers are loaded one after another with the same
 * request, connections and durations.
 *
 * Environment: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 10), BENCH_WARMUP
 * (s, default 2), BENCH_PROFILE=ours|express|bare (write a V8 CPU profile of that server),
 * DATABASE_URL (run ours on PostgreSQL instead of a temp SQLite file).
 * Returns 1 when measured requests failed; the target verdict is printed, not turned into an
 * exit code, because the figures vary with the machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServerChild } from '../lib/child.js';
import { envInteger } from '../lib/env.js';
import { measureServer, type BenchParams, type LoadRequest, type ServerFigures } from '../lib/measure.js';
import { buildReport, formatReport } from '../lib/report.js';
import { verifyOurAnswer, verifyStaticAnswer } from '../lib/verify.js';
import type { BenchCase } from './case.js';

const SERVER_NAMES = ['ours', 'express', 'bare'] as const;
type ServerName = (typeof SERVER_NAMES)[number];

const RESULTS_FILE = fileURLToPath(new URL('../results/latest.json', import.meta.url));
const PROFILE_DIR = path.join(os.tmpdir(), 'hub-bench-profiles');

const entry = (name: ServerName): URL => new URL(`../servers/${name}.ts`, import.meta.url);

function profiledServer(): ServerName | undefined {
  const raw = process.env.BENCH_PROFILE?.trim();
  if (!raw) return undefined;
  if (!(SERVER_NAMES as readonly string[]).includes(raw))
    throw new Error(`BENCH_PROFILE must be one of ${SERVER_NAMES.join(', ')}, got "${raw}"`);
  return raw as ServerName;
}

/** Every child started and not yet stopped, so an error or Ctrl-C leaves none behind. */
const running = new Set<ServerChild>();

/** Stops every child still running: each cleans up (temp dir, database) or is killed after a grace period. */
async function stopAll(): Promise<void> {
  const children = [...running];
  running.clear();
  await Promise.all(children.map((child) => child.stop()));
}

async function run(): Promise<number> {
  const params: BenchParams = {
    warmupSec: envInteger('BENCH_WARMUP', 2, 0, 120),
    durationSec: envInteger('BENCH_DURATION', 10, 1, 600),
    connections: envInteger('BENCH_CONNECTIONS', 10, 1, 1000),
  };
  const profile = profiledServer();

  /** Runs `use` on a freshly started server and stops it afterwards, so only one server runs at a time. */
  async function withServer<T>(name: ServerName, args: string[], use: (child: ServerChild) => Promise<T>): Promise<T> {
    process.stdout.write(`${name}: starting… `);
    const nodeFlags = name === profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
    const child = await ServerChild.start(name, entry(name), { args, nodeFlags });
    running.add(child);
    try {
      return await use(child);
    } finally {
      running.delete(child);
      await child.stop();
    }
  }

  async function measure(child: ServerChild, request: LoadRequest): Promise<ServerFigures> {
    process.stdout.write(`answer checked; ${params.warmupSec} s warm-up + ${params.durationSec} s load… `);
    const figures = await measureServer(child, request, params);
    process.stdout.write(`${figures.reqPerSec.toFixed(0)} req/s\n`);
    return figures;
  }

  try {
    // Ours goes first: its answer fixes the request every server gets and the body size to match.
    let request: LoadRequest | undefined;
    let bodyBytes = 0;
    const ours = await withServer('ours', [], async (child) => {
      if (!child.target) throw new Error('our server did not say what to request');
      bodyBytes = await verifyOurAnswer(child.baseUrl, child.target);
      request = { path: child.target.path, headers: child.target.headers };
      return measure(child, request);
    });
    const same = request!;
    const comparison = (name: 'express' | 'bare') =>
      withServer(name, [String(bodyBytes)], async (child) => {
        await verifyStaticAnswer(name, child.baseUrl + same.path, same.headers, bodyBytes);
        return measure(child, same);
      });
    const express = await comparison('express');
    const bare = await comparison('bare');

    const report = buildReport(
      { ...params, bodyBytes, path: same.path, database: process.env.DATABASE_URL?.trim() ? 'postgresql' : 'sqlite' },
      { ours, express, bare },
    );
    console.log(`\n${formatReport(report)}\n`);
    fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
    fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`figures written to ${path.relative(process.cwd(), RESULTS_FILE)}`);
    if (profile)
      console.log(
        `CPU profile of the ${profile} server written to ${PROFILE_DIR} ` +
          '(main thread: *.0.001.cpuprofile; open in Chrome DevTools)',
      );
    return report.valid ? 0 : 1;
  } finally {
    await stopAll();
  }
}

export const loadCase: BenchCase = {
  name: 'load',
  summary: 'HTTP load on GET /api/org/{slug}: ours vs plain Express vs bare node:http (child processes, autocannon)',
  run,
  abort: stopAll,
};
