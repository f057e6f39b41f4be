import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { cliEnv, HUB_BIN, runHub } from '../support/hub-cli.js';

/** Master keys every instance shares (docs/operating.md, "Running several instances"). */
export const SHARED_KEYS = { HUB_MASTER_KEYS: `k1:${randomBytes(32).toString('base64')}`, HUB_ACTIVE_KEY_ID: 'k1' };

/** One `hub serve` process with a data directory of its own, as on a machine of its own. */
export class Instance {
  private exited: Promise<number | null>;
  output = '';

  private constructor(
    readonly name: string,
    readonly dataDir: string,
    readonly child: ChildProcess,
    readonly url: string,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /** Starts `hub serve` on a free port (or `env.PORT`) and resolves once /readyz answers 200. */
  static async start(
    name: string,
    databaseUrl: string,
    env: Record<string, string> = {},
    dataDir?: string,
  ): Promise<Instance> {
    const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `hub-${name}-`));
    fs.rmSync(path.join(dir, 'server.json'), { force: true });
    // A process per instance: several servers share one database, each with its own caches.
    const child = spawn(process.execPath, [HUB_BIN, 'serve'], {
      // The rolling-restart load would reach the default requestRate ceiling (600/min) within seconds.
      env: cliEnv(dir, databaseUrl, {
        PORT: '0',
        LOG_LEVEL: 'info',
        HUB_CEILING_REQUEST_RATE: '1000000',
        ...SHARED_KEYS,
        ...env,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${output}`);
      if (Date.now() > deadline) throw new Error(`${name} did not become ready: ${output}`);
      // With a port of its own and HUB_BASE_URL set, the recorded URL is the public one, not where it listens.
      const recorded = env.PORT && env.PORT !== '0' ? `http://127.0.0.1:${env.PORT}` : readServerFile(dir);
      if (recorded) {
        const ready = await get(`${recorded}/readyz`).catch(() => undefined);
        if (ready?.status === 200) {
          const instance = new Instance(name, dir, child, recorded);
          child.stdout!.on('data', (d) => (instance.output += d));
          child.stderr!.on('data', (d) => (instance.output += d));
          instance.output = output;
          return instance;
        }
      }
      await sleep(100);
    }
  }

  /** SIGTERM, then the exit code once it has drained and stopped. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
    return this.exited;
  }

  get exitedWith(): Promise<number | null> {
    return this.exited;
  }
}

function readServerFile(dir: string): string | undefined {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, 'server.json'), 'utf8')) as { baseUrl: string }).baseUrl.replace(
      'localhost',
      '127.0.0.1',
    );
  } catch {
    return undefined;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: http.IncomingHttpHeaders;
}

/**
 * One request on a connection of its own (no keep-alive pool, as a load balancer's health of a
 * connection is not the question here); the body is parsed JSON when it is JSON.
 */
export function request(
  method: string,
  url: string,
  options: { cookie?: string; body?: unknown; declaredLength?: number; onSent?: () => void } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = { accept: 'application/json', connection: 'close' };
    if (options.cookie) headers.cookie = options.cookie;
    if (payload !== undefined || options.declaredLength !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(options.declaredLength ?? Buffer.byteLength(payload!));
    }
    let answering = false;
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      answering = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, body: body as Answer['body'], headers: res.headers });
      });
      res.on('error', reject);
    });
    req.on('error', (err) => {
      if (!answering) unanswered.add(err);
      reject(err);
    });
    if (options.onSent) req.on('finish', options.onSent);
    // An answer that never comes is a failure of its own, not a test that hangs.
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer to ${method} ${url} within 30 s`)));
    // A declared length alone: the headers go out and the answer comes from them (a 413), so the
    // server never has to read, or reset the connection under, a body it refuses.
    if (options.declaredLength !== undefined) req.flushHeaders();
    else req.end(payload);
  });
}

export const get = (url: string, cookie?: string) => request('GET', url, { cookie });

const unanswered = new WeakSet<Error>();

/** Whether `request` failed before any of an answer arrived: its connection refused or reset, or no answer in time. */
export const failedBeforeAnswer = (err: unknown): boolean => err instanceof Error && unanswered.has(err);

/** A session cookie for the user, from a login link printed by `hub login-link` on the instance's data directory. */
export async function logIn(instance: Instance, imOpenId: string, databaseUrl: string): Promise<string> {
  const printed = await runHub(['login-link', imOpenId], cliEnv(instance.dataDir, databaseUrl, SHARED_KEYS));
  if (printed.code !== 0) throw new Error(`hub login-link failed: ${printed.stderr}`);
  const link = printed.stdout.trim().replace('localhost', '127.0.0.1');
  if (!link.startsWith(instance.url))
    throw new Error(`the link ${link} is not under ${instance.url}, the URL the server records`);
  const answer = await request('GET', link);
  const cookie = String(answer.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
  if (answer.status !== 303 || !cookie) throw new Error(`login failed: ${answer.status}`);
  return cookie;
}
