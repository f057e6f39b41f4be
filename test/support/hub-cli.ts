import { fileURLToPath } from 'node:url';
import { runNode, type CliResult } from './subprocess.js';

export type { CliResult };

export const HUB_BIN = fileURLToPath(new URL('../../bin/hub.js', import.meta.url));

/** Environment for a `hub` subprocess on the given data directory and database. */
export function cliEnv(dataDir: string, databaseUrl: string | undefined, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, HUB_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return env;
}

/** Runs the real `hub` command as a subprocess and collects its output. */
export function runHub(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<CliResult> {
  return runNode(HUB_BIN, args, { env, input });
}
