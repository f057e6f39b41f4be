/**
 * The `startup` case: `bin/hub.js serve` as an operator starts it (`npm start`), timed from spawn to
 * the first 200 of an API request (GET /members as the owner: the app built, the database open, the
 * request validated), on a SQLite data directory prepared beforehand (migrated, one organization
 * of 100 members, a session), with hub's bundle brought up to date as `npm ci` leaves it. One
 * untimed start first (tsx's compile cache, the page cache), then BENCH_STARTS timed starts
 * (default 5), the server pinned to CPU 0 like the load case's; the figure is the median.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createServices } from '../../src/app/services.js';
import { systemClock } from '../../src/config/clock.js';
import { loadConfig } from '../../src/config/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrateLatest } from '../../src/db/migrate.js';
import { createLogger } from '../../src/log/logger.js';
import { envInteger } from '../lib/env.js';
import { login } from '../lib/in-process.js';
import { cpuMicrosOf, cpuPlan } from '../lib/proc.js';
import { LOAD_SIZE, seedStructure } from '../lib/seed-structure.js';
import { recordCaseReport, recordTarget } from '../lib/targets.js';
import type { BenchCase } from './case.js';
import { freePort, prepareHub, spawnHubServe } from '../lib/hub-serve.js';

const GIVE_UP_MS = 60_000;

let dataDir: string | undefined;
let child: ChildProcess | undefined;

async function abort(): Promise<void> {
  child?.kill('SIGKILL');
  child = undefined;
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
}

/**
 * Starts `hub serve`, polls the request every 5 ms; returns the ms from spawn to its first 200 and
 * the CPU ms the server had used by then (steadier than the wall time on a busy machine).
 */
async function timeOneStart(dir: string, pathname: string, cookie: string): Promise<{ wallMs: number; cpuMs: number }> {
  const port = await freePort();
  const cpus = cpuPlan();
  const started = performance.now();
  const proc = spawnHubServe({ dataDir: dir, databaseUrl: undefined }, port, cpus.pinned ? { cpu: cpus.server } : {});
  child = proc;
  const exited = new Promise<never>((_, reject) =>
    proc.once('exit', (code) => reject(new Error(`hub serve exited (code ${code}) before answering 200`))),
  );
  exited.catch(() => undefined);
  try {
    for (;;) {
      if (performance.now() - started > GIVE_UP_MS) throw new Error(`no 200 within ${GIVE_UP_MS / 1000} s`);
      const status = await Promise.race([
        fetch(`http://127.0.0.1:${port}${pathname}`, { headers: { cookie, accept: 'application/json' } }).then(
          async (r) => {
            await r.arrayBuffer();
            return r.status;
          },
          () => 0,
        ),
        exited,
      ]);
      if (status === 200) return { wallMs: performance.now() - started, cpuMs: cpuMicrosOf(proc.pid!) / 1000 };
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    const gone = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    await gone;
    child = undefined;
  }
}

async function run(): Promise<number> {
  const starts = envInteger('BENCH_STARTS', 5, 1, 50);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-bench-startup-'));
  const config = { ...loadConfig({}), dataDir };
  const database = openDatabase(config);
  const db = database.writer;
  let pathname: string;
  let cookie: string;
  try {
    await migrateLatest(db);
    const logger = createLogger({ level: 'info', destination: pino.destination({ dest: '/dev/null', sync: true }) });
    const services = createServices({ config, db, readers: database.readers, clock: systemClock, logger });
    const seed = await seedStructure(db, LOAD_SIZE, 'startup');
    cookie = await login(services, seed.owner.imOpenId);
    pathname = `/api/org/${seed.org.slug}/members`;
  } finally {
    await database.destroy();
  }
  await prepareHub();
  process.stdout.write('startup: one untimed start… ');
  await timeOneStart(dataDir, pathname, cookie);
  const times: { wallMs: number; cpuMs: number }[] = [];
  process.stdout.write('timed:');
  for (let i = 0; i < starts; i++) {
    times.push(await timeOneStart(dataDir, pathname, cookie));
    process.stdout.write(` ${times.at(-1)!.wallMs.toFixed(0)} ms`);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  const wall = median(times.map((t) => t.wallMs));
  const cpu = median(times.map((t) => t.cpuMs));
  console.log(
    `\nstart-up to first 200 of GET ${pathname}: median ${wall.toFixed(0)} ms over ${starts} starts ` +
      `(server CPU by then: median ${cpu.toFixed(0)} ms)`,
  );
  recordTarget(
    'startup',
    wall / 1000,
    `median of ${starts} starts, SQLite, spawn → first 200 of GET /members; server CPU ${cpu.toFixed(0)} ms`,
  );
  recordCaseReport('startup', { starts: times, medianWallMs: wall, medianCpuMs: cpu });
  await abort();
  return 0;
}

export const startupCase: BenchCase = {
  name: 'startup',
  summary: '`hub serve` from spawn to the first 200 of an API request (GET /members), median of 5 starts',
  run,
  abort,
};
