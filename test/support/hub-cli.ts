import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const HUB_BIN = fileURLToPath(new URL('../../bin/hub.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Environment for a `hub` subprocess on the given data directory and database. */
export function cliEnv(dataDir: string, databaseUrl: string | undefined, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, HUB_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return env;
}

/** Runs the real `hub` command as a subprocess and collects its output. */
export function runHub(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HUB_BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}
