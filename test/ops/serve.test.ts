import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/db/connect.js';
import { cliEnv, HUB_BIN, runHub } from '../support/hub-cli.js';

const dirs: string[] = [];
const freshDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-serve-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A start-up failure: exit code, one line on stderr naming the cause, nothing on stdout. */
function expectOneLine(result: { code: number | null; stdout: string; stderr: string }, code: number, pattern: RegExp) {
  expect(result.code).toBe(code);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n'), result.stderr).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\bat .*\(.*:\d+:\d+\)/);
}

/** `hub serve` on SQLite in a fresh data directory, until it has recorded its base URL. */
async function startServe(dataDir: string, env: Record<string, string> = {}, args: string[] = []) {
  // A process: what these tests prove is the server's start-up, its stdout and its signals.
  const child = spawn(process.execPath, [HUB_BIN, 'serve', ...args], {
    env: cliEnv(dataDir, undefined, { PORT: '0', LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => (output.stdout += d));
  child.stderr.on('data', (d) => (output.stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const serverFile = path.join(dataDir, 'server.json');
  for (;;) {
    if (child.exitCode !== null) throw new Error(`hub serve exited: ${output.stdout}${output.stderr}`);
    if (fs.existsSync(serverFile) && output.stdout.includes('"msg":"listening"')) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const baseUrl = (JSON.parse(fs.readFileSync(serverFile, 'utf8')) as { baseUrl: string }).baseUrl;
  return { child, output, exited, baseUrl };
}

describe('hub --version and --help', () => {
  it('prints the package version and each command’s usage', async () => {
    const version = await runHub(['--version'], cliEnv(freshDir(), undefined));
    expect(version.code).toBe(0);
    expect(version.stdout).toBe(`hub ${JSON.parse(fs.readFileSync('package.json', 'utf8')).version}\n`);
    const help = await runHub(['serve', '--help'], cliEnv(freshDir(), undefined));
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: hub serve \[--demo\]\n/);
    const skill = await runHub(['login-link', '-h'], cliEnv(freshDir(), undefined));
    expect(skill.stdout).toMatch(/^Usage: hub login-link <imOpenId>/);
    expect((await runHub(['help'], cliEnv(freshDir(), undefined))).stdout).toContain('HOST');
  });
});

describe('hub serve: a failed start is one line and leaves nothing behind', () => {
  it('a port in use fails before the database is created or anything seeded', async () => {
    const blocker: Server = createServer();
    const port = await new Promise<number>((resolve) =>
      blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)),
    );
    const dataDir = freshDir();
    try {
      const result = await runHub(['serve'], cliEnv(dataDir, undefined, { PORT: String(port) }));
      expectOneLine(result, 1, new RegExp(`^hub serve: port ${port} on 127\\.0\\.0\\.1 is in use`));
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      blocker.close();
    }
  });

  it('names LOG_LEVEL, HOST and PORT when they are malformed', async () => {
    expectOneLine(
      await runHub(['serve'], cliEnv(freshDir(), undefined, { LOG_LEVEL: 'verbose' })),
      2,
      /LOG_LEVEL must be one of .*"verbose"/,
    );
    expectOneLine(
      await runHub(['serve'], cliEnv(freshDir(), undefined, { HOST: 'http://0.0.0.0' })),
      2,
      /HOST must be an address/,
    );
    expectOneLine(
      await runHub(['serve'], cliEnv(freshDir(), undefined, { PORT: 'eighty' })),
      2,
      /PORT must be a whole number/,
    );
  });

  it('names the database it cannot reach, without the password or a stack', async () => {
    const result = await runHub(['serve'], cliEnv(freshDir(), 'postgres://hub:s3cret@127.0.0.1:1/hub', { PORT: '0' }));
    expectOneLine(
      result,
      1,
      /^hub serve: cannot reach the PostgreSQL database 127\.0\.0\.1:1\/hub \(DATABASE_URL\): connect ECONNREFUSED/,
    );
    expect(result.stderr).not.toContain('s3cret');
  });
});

describe('hub serve: while it starts', () => {
  it('answers /healthz 200 (alive) and /readyz and the rest 503 until its migrations are done', async () => {
    const dataDir = freshDir();
    expect((await runHub(['migrate'], cliEnv(dataDir, undefined))).code).toBe(0);
    // Another instance's migration run, as this one sees it: the lock is held until the test lets go.
    const database = openSqlite(path.join(dataDir, 'hub.sqlite'));
    const db = database.writer;
    await db('knex_migrations_lock').update({ is_locked: 1 });
    const port = await freePort();
    // A process: the start-up itself (serving health checks while it waits to migrate).
    const child = spawn(process.execPath, [HUB_BIN, 'serve'], {
      env: cliEnv(dataDir, undefined, { PORT: String(port), LOG_LEVEL: 'info' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const url = `http://127.0.0.1:${port}`;
    try {
      let health: Response | undefined;
      while (!health) {
        if (child.exitCode !== null) throw new Error(`hub serve exited: ${output}`);
        health = await fetch(`${url}/healthz`).catch(() => undefined);
        if (!health) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { error: { code: string } }).error.code).toBe('starting');
      expect((await fetch(`${url}/api/me`)).status).toBe(503);
      expect(output).not.toContain('"msg":"listening"');

      await db('knex_migrations_lock').update({ is_locked: 0 });
      for (;;) {
        if (child.exitCode !== null) throw new Error(`hub serve exited: ${output}`);
        if ((await fetch(`${url}/readyz`)).status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      await database.destroy();
      child.kill('SIGTERM');
      await exited;
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('hub serve: one server per SQLite data directory', () => {
  it('refuses a second start naming the live one’s pid and port, and leaves its record alone', async () => {
    const dataDir = freshDir();
    const first = await startServe(dataDir);
    const serverFile = path.join(dataDir, 'server.json');
    try {
      const recorded = fs.readFileSync(serverFile, 'utf8');
      const port = new URL(first.baseUrl).port;
      // A process: what is tested is a start that refuses.
      const second = await runHub(['serve'], cliEnv(dataDir, undefined, { PORT: '0' }));
      expectOneLine(
        second,
        1,
        new RegExp(
          `^hub serve: the SQLite data directory .* is in use by hub serve \\(pid ${first.child.pid}, port ${port},`,
        ),
      );
      expect(second.stderr).toContain('DATABASE_URL');
      expect(fs.readFileSync(serverFile, 'utf8')).toBe(recorded);
      const link = await runHub(['login-link', 'demo-owner'], cliEnv(dataDir, undefined));
      expect(link.stdout.startsWith(`${first.baseUrl}/auth/login?token=`), link.stdout).toBe(true);
    } finally {
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
    }
    expect(fs.existsSync(serverFile)).toBe(false);
  });

  it('takes over the record of a server that no longer runs', async () => {
    const dataDir = freshDir();
    // The pid of a process that has exited: a server killed without its clean stop.
    const gone = spawn(process.execPath, ['-e', '']);
    await once(gone, 'exit');
    fs.writeFileSync(
      path.join(dataDir, 'server.json'),
      JSON.stringify({ baseUrl: 'http://127.0.0.1:9', port: 9, pid: gone.pid, startedAt: '' }),
    );
    const serve = await startServe(dataDir);
    try {
      const record = JSON.parse(fs.readFileSync(path.join(dataDir, 'server.json'), 'utf8')) as { pid: number };
      expect(record.pid).toBe(serve.child.pid);
      expect(serve.baseUrl).not.toBe('http://127.0.0.1:9');
    } finally {
      serve.child.kill('SIGTERM');
      expect(await serve.exited).toBe(0);
    }
  });
});

describe('hub serve: a clean start', () => {
  it(
    'listens on HOST (127.0.0.1 by default), prints the demo link ' +
      'on stderr only, and records its base URL for hub login-link until it stops',
    async () => {
      const dataDir = freshDir();
      const serve = await startServe(dataDir);
      try {
        // The base URL follows HOST (127.0.0.1 here), the address a browser on this machine opens.
        expect(serve.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        const port = new URL(serve.baseUrl).port;
        expect(serve.output.stderr).toMatch(
          new RegExp(`Demo organization "demo" created[^]*http://127\\.0\\.0\\.1:${port}/auth/login\\?token=`),
        );
        expect(serve.output.stdout).not.toContain('token=');
        for (const line of serve.output.stdout.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
        expect(serve.output.stdout).toContain('"host":"127.0.0.1"');

        // The shell's PORT says nothing about the running server: the recorded URL wins.
        const link = await runHub(['login-link', 'demo-owner'], cliEnv(dataDir, undefined, { PORT: '9' }));
        expect(link.code).toBe(0);
        expect(link.stdout).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/auth/login\\?token=`));
        const login = await fetch(link.stdout.trim(), { redirect: 'manual' });
        expect(login.status).toBe(303);

        // A browser on this machine may open either loopback spelling: the CSRF check takes both
        // (on this port only).
        const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
        const write = (origin: string) =>
          fetch(`${serve.baseUrl}/api/org/demo/settings`, {
            method: 'PATCH',
            headers: { cookie, origin, 'content-type': 'application/json' },
            body: JSON.stringify({ membersCanCreateProjects: false }),
          });
        for (const origin of [serve.baseUrl, `http://localhost:${port}`, `http://[::1]:${port}`])
          expect((await write(origin)).status, origin).toBe(200);
        for (const origin of [`http://localhost:${Number(port) + 1}`, `https://localhost:${port}`]) {
          const refused = await write(origin);
          expect(refused.status, origin).toBe(403);
          expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('csrf_rejected');
        }
      } finally {
        serve.child.kill('SIGTERM');
        expect(await serve.exited).toBe(0);
      }
      expect(serve.output.stdout).toContain('"msg":"stopped"');
      // Stopped, it no longer names its URL: the console's configuration applies again.
      expect(fs.existsSync(path.join(dataDir, 'server.json'))).toBe(false);
      const after = await runHub(
        ['login-link', 'demo-owner'],
        cliEnv(dataDir, undefined, { HUB_BASE_URL: 'https://hub.example.com' }),
      );
      expect(after.stdout).toMatch(/^https:\/\/hub\.example\.com\/auth\/login\?token=/);
    },
  );

  it('seeds nothing on a database that has an organization, and --demo is accepted', async () => {
    const dataDir = freshDir();
    expect((await runHub(['migrate'], cliEnv(dataDir, undefined))).code).toBe(0);
    const created = await runHub(
      ['org', 'create', 'acme', '--name', 'Acme', '--owner', 'ou_a'],
      cliEnv(dataDir, undefined),
    );
    expect(created.code).toBe(0);
    const serve = await startServe(dataDir, {}, ['--demo']);
    try {
      expect(serve.output.stderr).not.toContain('Demo organization');
    } finally {
      serve.child.kill('SIGTERM');
      expect(await serve.exited).toBe(0);
    }
  });

  it('drains on SIGTERM: a request in flight is answered, then the process exits 0', async () => {
    const dataDir = freshDir();
    const serve = await startServe(dataDir, { HUB_SHUTDOWN_GRACE_MS: '5000' });
    const url = serve.baseUrl;
    // The Redoc bundle (1 MB) read slowly: the answer is still streaming when SIGTERM comes.
    const response = await fetch(`${url}/docs/redoc.standalone.js`);
    expect(response.status).toBe(200);
    serve.child.kill('SIGTERM');
    const reader = response.body!.getReader();
    let bytes = 0;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
    }
    expect(bytes).toBe(Number(response.headers.get('content-length')));
    expect(await serve.exited).toBe(0);
    expect(serve.output.stdout).toContain('draining');
  });

  it('drains on SIGTERM: a connection opened before it, its request sent after it, is answered', async () => {
    const dataDir = freshDir();
    const serve = await startServe(dataDir, { HUB_SHUTDOWN_GRACE_MS: '60000' });
    const url = serve.baseUrl;
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    await once(socket, 'connect');
    // Waiting connections are accepted in order: once a later one is answered, this one is accepted.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    serve.child.kill('SIGTERM');
    while (!serve.output.stdout.includes('draining')) await new Promise((resolve) => setTimeout(resolve, 20));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    const ended = new Promise<void>((resolve, reject) => {
      socket.once('end', resolve);
      socket.once('error', reject);
    });
    socket.write('GET /healthz HTTP/1.1\r\nHost: hub\r\n\r\n');
    await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(await serve.exited).toBe(0);
  });

  it(
    'drains within HUB_SHUTDOWN_GRACE_MS: ' + 'a request that never finishes is cut off and the process still exits 0',
    async () => {
      const dataDir = freshDir();
      const serve = await startServe(dataDir, { HUB_SHUTDOWN_GRACE_MS: '1000' });
      const url = serve.baseUrl;
      const link = /(http:\/\/127\.0\.0\.1:\d+\/auth\/login\?token=\S+)/.exec(serve.output.stderr)![1]!;
      const cookie = (await fetch(link, { redirect: 'manual' })).headers.get('set-cookie')!.split(';')[0]!;
      const { hostname, port } = new URL(url);
      // A member's upload that announces 100 kB and sends one byte: it waits in the body parser.
      const socket = connect(Number(port), hostname);
      await new Promise((resolve) => socket.once('connect', resolve));
      let answer = '';
      const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';
      // Node's server answers `Expect: 100-continue` with `100 Continue` as it hands the request to
      // the app: from then on the request is in flight, and it needs nothing more from the client
      // to reach the body parser and wait there. So the test waits for that, not for a guessed time.
      const inFlight = new Promise<void>((resolve) => {
        socket.on('data', (d) => {
          answer += d;
          if (answer.startsWith(CONTINUE)) resolve();
        });
      });
      socket.on('error', () => undefined);
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.write(
        `PUT /api/org/demo/agent-skills/x HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n',
      );
      await inFlight;
      socket.write('{');
      const stoppedAt = Date.now();
      serve.child.kill('SIGTERM');
      expect(await serve.exited).toBe(0);
      await closed;
      // Cut off at the grace period, not before it; the upper bound is generous for slow CI machines.
      const drainedIn = Date.now() - stoppedAt;
      expect(drainedIn).toBeGreaterThanOrEqual(900);
      expect(drainedIn).toBeLessThan(1_000 + 10_000);
      // Nothing but the interim answer: the request was cut off, never answered.
      expect(answer).toBe(CONTINUE);
      expect(serve.output.stdout).toContain('still in flight at the end of the grace period');
    },
  );
});
