import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

/** Runs the real `hub` command as a subprocess and collects its output. */
export function runHub(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<CliResult> {
  return runNode(HUB_BIN, args, { env, input });
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
