import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTree, SkillContentStore } from '../../src/skills/content-store.js';
import { cliEnv, HUB_BIN } from '../support/hub-cli.js';
import { waitForOutput } from '../support/subprocess.js';
import { TestHub } from '../support/test-hub.js';
import { storeProblems } from './support.js';

const WORKER = fileURLToPath(new URL('./crash-worker.ts', import.meta.url));
const ROUNDS = 20;
/** After the worker is ready, it is killed within this many milliseconds. */
const MAX_KILL_DELAY_MS = 250;

let hub: TestHub;
let orgId: string;
let storeRoot: string;
let env: NodeJS.ProcessEnv;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  hub = await TestHub.start();
  orgId = (await hub.createOrg('crashy', 'crashy-owner')).id;
  storeRoot = path.join(hub.database.dataDir, 'skills');
  env = cliEnv(hub.database.dataDir, hub.database.databaseUrl);
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  if (storeRoot) await removeTree(storeRoot);
  await hub?.stop();
});

/** Starts a process and resolves once its output matches; collects all its output. */
async function start(
  args: string[],
  readyLine: RegExp,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; output: () => string; exited: Promise<void> }> {
  // A process: it is killed mid-write, and the next start cleans up after it.
  const child = spawn(process.execPath, args, { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) =>
    child.on('exit', () => {
      children.delete(child);
      resolve();
    }),
  );
  await waitForOutput(child, readyLine);
  return { child, output: () => output, exited };
}

const stagingDirs = () =>
  fs.existsSync(storeRoot) ? fs.readdirSync(storeRoot).filter((n) => n.startsWith('.tmp-')) : [];

async function missingEntries(): Promise<string[]> {
  const rows = await hub.services
    .db('agent_skills')
    .select<{ name: string; content_digest: string }[]>('name', 'content_digest');
  return rows
    .filter((r) => !fs.existsSync(path.join(storeRoot, r.content_digest)))
    .map((r) => `${r.name} → ${r.content_digest}`);
}

/** The pid of a process that has exited: its staging directories are stale. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

/** A sealed (read-only) staging directory as a killed install leaves it. */
function fakeStaging(pid: number): string {
  const dir = path.join(storeRoot, `.tmp-${pid}-stale${Math.random().toString(36).slice(2, 8)}`);
  fs.mkdirSync(path.join(dir, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'docs', 'half.md'), 'half written');
  fs.chmodSync(path.join(dir, 'docs', 'half.md'), 0o444);
  fs.chmodSync(path.join(dir, 'docs'), 0o555);
  fs.chmodSync(dir, 0o555);
  return dir;
}

describe('crash safety of the skill store', () => {
  it(`survives ${ROUNDS} SIGKILLs in the middle of installs: no partial entry, no row without its entry`, async () => {
    let installs = 0;
    let roundsLeavingStaging = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const worker = await start(['--import', 'tsx', WORKER, orgId], /^ready$/m);
      await sleep(Math.random() * MAX_KILL_DELAY_MS);
      worker.child.kill('SIGKILL');
      await worker.exited;
      installs += worker.output().match(/^installed [0-9a-f]{64}$/gm)?.length ?? 0;
      if (stagingDirs().length > 0) roundsLeavingStaging += 1;
      expect(
        storeProblems(storeRoot).filter((p) => !p.startsWith('unexpected .tmp-')),
        `round ${round}`,
      ).toEqual([]);
      expect(await missingEntries(), `round ${round}`).toEqual([]);
    }
    expect(installs).toBeGreaterThan(0);

    // Start-up of the pipeline removes what the killed installs left in staging, and only that.
    const left = stagingDirs().length;
    const removed = await new SkillContentStore(storeRoot).init();
    expect(removed).toBe(left);
    expect(stagingDirs()).toEqual([]);
    expect(storeProblems(storeRoot)).toEqual([]);
    expect(await missingEntries()).toEqual([]);
    console.info(
      `crash test: ${installs} installs completed across ${ROUNDS} kills; ` +
        `${roundsLeavingStaging} kills left a staging directory (removed by the next start), ` +
        `${removed} left at the end`,
    );
  });

  it('keeps the staging of a running process and removes that of a dead one at start-up', async () => {
    const sleeper = spawn('sleep', ['30']);
    children.add(sleeper);
    try {
      const live = fakeStaging(sleeper.pid!);
      const dead = fakeStaging(await deadPid());
      expect(await new SkillContentStore(storeRoot).init()).toBe(1);
      expect(fs.existsSync(live)).toBe(true);
      expect(fs.existsSync(dead)).toBe(false);
      await removeTree(live);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('hub serve removes stale staging directories when it starts', async () => {
    const stale = [fakeStaging(await deadPid()), fakeStaging(await deadPid())];
    const server = await start([HUB_BIN, 'serve'], /"msg":"listening"/, { LOG_LEVEL: 'info', PORT: '0' });
    // The line comes after start-up's clean-up; how the server stops is not under test here.
    server.child.kill('SIGKILL');
    await server.exited;
    for (const dir of stale) expect(fs.existsSync(dir)).toBe(false);
    expect(server.output()).toContain('removed stale skill staging directories');
    expect(storeProblems(storeRoot)).toEqual([]);
  });
});
