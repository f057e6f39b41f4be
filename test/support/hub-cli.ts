import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { runNode, type CliResult } from './subprocess.js';

export type { CliResult };

export const HUB_BIN = fileURLToPath(new URL('../../bin/hub.js', import.meta.url));

/** Environment for a `hub` subprocess on the given data directory and database. */
export function cliEnv(
  dataDir: string,
  databaseUrl: string | undefined,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    HUB_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...extra,
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return env;
}

/**
 * Runs a `hub` command through the console's entry function (`main` of src/cli/hub.ts) in this
 * process, as `bin/hub.js` runs it: with `env` as the whole environment, `input` as stdin, and its
 * stdout, stderr and exit code collected. The commands, their database and their output are the
 * real ones; only the process start is left out. `hub serve` keeps running and answers signals, so
 * it always gets a process of its own; tests where the process itself is what they prove (signals,
 * stdout pipes, start-up, several processes at once) use runHubProcess.
 */
export function runHub(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<CliResult> {
  if (args[0] === 'serve') return runHubProcess(args, env, input);
  const run = inProcessQueue.then(() => runInProcess(args, env, input));
  // One command at a time: each takes over this process's environment and standard streams.
  inProcessQueue = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

/** Runs the real `hub` command as a subprocess (bin/hub.js) and collects its output. */
export function runHubProcess(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<CliResult> {
  return runNode(HUB_BIN, args, { env, input });
}

let inProcessQueue: Promise<void> = Promise.resolve();

async function runInProcess(args: string[], env: NodeJS.ProcessEnv, input: string | undefined): Promise<CliResult> {
  const { main } = await import('../../src/cli/hub.js');
  let stdout = '';
  let stderr = '';
  const capture =
    (append: (text: string) => void) =>
    (chunk: string | Uint8Array, encoding?: unknown, done?: unknown): boolean => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const callback = typeof encoding === 'function' ? encoding : done;
      if (typeof callback === 'function') process.nextTick(callback as () => void);
      return true;
    };
  const saved = {
    env: process.env,
    stdoutWrite: process.stdout.write,
    stderrWrite: process.stderr.write,
    stdin: Object.getOwnPropertyDescriptor(process, 'stdin')!,
  };
  // Like a subprocess's pipe: the input, then end of file (no TTY).
  const stdin = Readable.from(input === undefined || input === '' ? [] : [Buffer.from(input)]);
  process.env = { ...env };
  process.stdout.write = capture((text) => (stdout += text)) as typeof process.stdout.write;
  process.stderr.write = capture((text) => (stderr += text)) as typeof process.stderr.write;
  Object.defineProperty(process, 'stdin', { configurable: true, enumerable: saved.stdin.enumerable, get: () => stdin });
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    process.env = saved.env;
    process.stdout.write = saved.stdoutWrite;
    process.stderr.write = saved.stderrWrite;
    Object.defineProperty(process, 'stdin', saved.stdin);
  }
}

/**
 * A malformed setting stops `hub migrate` with exit 2 and one stderr line naming the variable,
 * before a database file is created.
 */
export async function expectSettingRefused(setting: Record<string, string>, variable: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-setting-'));
  try {
    const result = await runHub(['migrate'], cliEnv(dataDir, undefined, setting));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(variable);
    expect(fs.existsSync(path.join(dataDir, 'hub.sqlite'))).toBe(false);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
