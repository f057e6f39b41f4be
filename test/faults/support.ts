import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cliEnv, HUB_BIN } from '../support/hub-cli.js';

/** A real `hub serve` subprocess, with what it printed on stderr so far. */
export interface ServeProcess {
  child: ChildProcess;
  baseUrl: string;
  stderr(): string;
  /** A session cookie of the demo owner (`--demo` prints the link on stderr). */
  cookie: string;
  stop(): Promise<void>;
}

/**
 * Starts `hub serve --demo` on `dataDir` (and `databaseUrl`, else SQLite), with stdout as `stdout`
 * (a descriptor, or 'ignore'), and signs the demo owner in with the link it prints.
 */
export async function startServe(options: {
  dataDir: string;
  databaseUrl?: string;
  stdout?: number | 'ignore';
  env?: Record<string, string>;
}): Promise<ServeProcess> {
  const stdio: StdioOptions = ['ignore', options.stdout ?? 'ignore', 'pipe'];
  // A process: a fault is injected around the real server (its stdout, its disk, its database).
  const child = spawn(process.execPath, [HUB_BIN, 'serve', '--demo'], {
    env: cliEnv(options.dataDir, options.databaseUrl, { PORT: '0', LOG_LEVEL: 'info', ...options.env }),
    stdio,
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const serverFile = path.join(options.dataDir, 'server.json');
  const linkPattern = /(http:\/\/\S+\/auth\/login\?token=\S+)/;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`hub serve exited: ${stderr}`);
    if (fs.existsSync(serverFile) && linkPattern.test(stderr)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const baseUrl = (JSON.parse(fs.readFileSync(serverFile, 'utf8')) as { baseUrl: string }).baseUrl;
  const link = new URL(linkPattern.exec(stderr)![1]!);
  const login = await fetch(`${baseUrl}${link.pathname}${link.search}`, { redirect: 'manual' });
  const cookie = login.headers.get('set-cookie')?.split(';')[0];
  if (!cookie) throw new Error(`login failed: ${login.status}`);
  return {
    child,
    baseUrl,
    cookie,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Whether this process may mount file systems and run PostgreSQL's tools as its user (CI runs as root). */
export const isRoot = process.getuid?.() === 0;

/** One request to the server as the signed-in demo owner; the answer's status and JSON body. */
export async function call(
  server: Pick<ServeProcess, 'baseUrl' | 'cookie'>,
  method: string,
  pathname: string,
  body?: unknown,
): Promise<{ status: number; body: { error?: { code: string; message: string } } & Record<string, unknown> }> {
  const res = await fetch(`${server.baseUrl}${pathname}`, {
    method,
    headers: { cookie: server.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

/** The value of one unlabelled metric on `/metrics`. */
export async function metric(server: Pick<ServeProcess, 'baseUrl'>, name: string): Promise<number> {
  const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`no metric ${name}`);
  return Number(line.split(' ')[1]);
}
