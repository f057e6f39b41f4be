import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { cliEnv, HUB_BIN, runHub } from '../support/hub-cli.js';
import { waitForOutput } from '../support/subprocess.js';

let database: TestDatabase;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  database = await createTestDatabase();
  env = cliEnv(database.dataDir, database.databaseUrl);
});
afterAll(() => database.drop());

const orgCount = async () => Number((await database.db('organizations').count({ n: '*' }).first())?.n ?? 0);

function expectUsageError(result: { code: number | null; stderr: string; stdout: string }, pattern: RegExp) {
  expect(result.code).toBe(2);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
  expect(result.stdout).toBe('');
}

describe('hub arguments', () => {
  it('refuses no command, an unknown command and unknown flags with one line and exit 2', async () => {
    expectUsageError(await runHub([], env), /command is required/);
    expectUsageError(await runHub(['launch'], env), /unknown command "launch"/);
    expectUsageError(await runHub(['migrate', '--force'], env), /--force/);
    expectUsageError(await runHub(['org', 'delete', 'x'], env), /org delete/);
  });

  it('prints its usage on help', async () => {
    const result = await runHub(['help'], env);
    expect(result.code).toBe(0);
    for (const command of ['serve', 'migrate', 'org create', 'login-link']) expect(result.stdout).toContain(command);
  });
});

describe('hub migrate', () => {
  it('applies the migrations, and says so when there is nothing left to do', async () => {
    const first = await runHub(['migrate'], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^migrations: applied 20261122000000_identity(, \d+_\w+)*\n$/);
    const second = await runHub(['migrate'], env);
    expect(second.stdout).toBe('migrations: already up to date\n');
  });
});

describe('a missing database', () => {
  it('is created by migrate only: any other command names where it looked, exits 1 and creates nothing', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-missing-'));
    const missing = path.join(dataDir, 'not-here');
    try {
      const commands = [
        ['org', 'create', 'initech', '--name', 'Initech', '--owner', 'ou_peter'],
        ['login-link', 'ou_peter'],
        ['audit', 'initech'],
        ['identity-provider', 'list'],
      ];
      for (const args of commands) {
        const result = await runHub(args, cliEnv(missing, undefined));
        expect(result.code, args.join(' ')).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(result.stderr).toContain(`data directory ${missing}`);
        expect(result.stderr).toContain(path.join(missing, 'hub.sqlite'));
        expect(result.stderr).toContain('hub migrate');
        expect(fs.existsSync(path.join(missing, 'hub.sqlite'))).toBe(false);
      }
      const migrated = await runHub(['migrate'], cliEnv(missing, undefined));
      expect(migrated.code).toBe(0);
      const listed = await runHub(['identity-provider', 'list'], cliEnv(missing, undefined));
      expect(listed.code).toBe(0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('hub org create', () => {
  it('creates an organization with its owner', async () => {
    const result = await runHub(
      ['org', 'create', 'initech', '--name', 'Initech', '--owner', 'ou_peter', '--owner-name', 'Peter'],
      env,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^created organization initech \(.+\) with owner ou_peter\n$/);
    const owner = await database
      .db('memberships as m')
      .join('users as u', 'u.id', 'm.user_id')
      .join('organizations as o', 'o.id', 'm.organization_id')
      .where({ 'o.slug': 'initech' })
      .first('u.im_open_id', 'm.display_name', 'm.role');
    // The name is the organization's for its owner, never the user's own (what /api/me shows).
    expect(owner).toEqual({ im_open_id: 'ou_peter', display_name: 'Peter', role: 'OWNER' });
  });

  it('gives the owner the avatar of --avatar-url (an https URL)', async () => {
    const avatar = 'https://cdn.example.com/avatars/ou_bill.png';
    const result = await runHub(
      ['org', 'create', 'initrode', '--name', 'Initrode', '--owner', 'ou_bill', '--avatar-url', avatar],
      env,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const owner = await database
      .db('memberships as m')
      .join('users as u', 'u.id', 'm.user_id')
      .where({ 'u.im_open_id': 'ou_bill' })
      .first('m.avatar_url');
    expect(owner).toEqual({ avatar_url: avatar });
  });

  it('refuses bad input with one line, exit 2, and writes nothing', async () => {
    const before = await orgCount();
    for (const avatar of ['http://cdn.example.com/a.png', 'not a url', 'https://user:pw@cdn.example.com/a.png']) {
      expectUsageError(
        await runHub(['org', 'create', 'ok-slug', '--name', 'N', '--owner', 'ou_x', '--avatar-url', avatar], env),
        /avatar URL/,
      );
    }
    expectUsageError(await runHub(['org', 'create', 'initech', '--name', 'Again', '--owner', 'ou_x'], env), /taken/);
    expectUsageError(await runHub(['org', 'create', 'Bad_Slug', '--name', 'N', '--owner', 'ou_x'], env), /slug/);
    expectUsageError(await runHub(['org', 'create', 'ok-slug', '--owner', 'ou_x'], env), /--name is required/);
    expectUsageError(await runHub(['org', 'create', 'ok-slug', '--name', 'N'], env), /--owner is required/);
    expectUsageError(await runHub(['org', 'create', '--name', 'N', '--owner', 'o'], env), /expected 1 argument/);
    expect(await orgCount()).toBe(before);
    expect(await database.db('users').where({ im_open_id: 'ou_x' }).first()).toBeUndefined();
  });
});

describe('hub login-link', () => {
  it('prints one login URL and nothing else', async () => {
    const result = await runHub(['login-link', 'ou_peter'], { ...env, HUB_BASE_URL: 'https://hub.example.com' });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^https:\/\/hub\.example\.com\/auth\/login\?token=[A-Za-z0-9_-]{43}\n$/);
    expect(result.stderr).toBe('');
  });

  it('refuses an unknown user', async () => {
    expectUsageError(await runHub(['login-link', 'ou_nobody'], env), /ou_nobody/);
  });

  it('uses the base URL a running server recorded, and ignores one whose server no longer runs', async () => {
    const serverFile = path.join(database.dataDir, 'server.json');
    const record = (pid: number) =>
      fs.writeFileSync(serverFile, JSON.stringify({ baseUrl: 'http://localhost:4711', pid, startedAt: '' }));
    const configured = { ...env, HUB_BASE_URL: 'https://hub.example.com' };
    try {
      record(process.pid); // a process that runs: this test's
      const running = await runHub(['login-link', 'ou_peter'], configured);
      expect(running.code, running.stderr).toBe(0);
      expect(running.stdout).toMatch(/^http:\/\/localhost:4711\/auth\/login\?token=/);

      // A server that stopped without removing its record (killed): its pid no longer runs.
      const gone = spawn(process.execPath, ['-e', '']);
      await new Promise((resolve) => gone.once('exit', resolve));
      record(gone.pid!);
      const stopped = await runHub(['login-link', 'ou_peter'], configured);
      expect(stopped.code, stopped.stderr).toBe(0);
      expect(stopped.stdout).toMatch(/^https:\/\/hub\.example\.com\/auth\/login\?token=/);
    } finally {
      fs.rmSync(serverFile, { force: true });
    }
  });
});

describe('hub serve', () => {
  it(
    'seeds the demo organization on an empty database, ' + 'prints a link that logs in on stderr, and serves /api/me',
    async () => {
      const fresh = await createTestDatabase();
      const port = await freePort();
      // --demo: without it only the embedded SQLite default seeds the demo organization.
      // A process: the start-up (seeding, the link printed on stderr) of the real command.
      const child = spawn(process.execPath, [HUB_BIN, 'serve', '--demo'], {
        env: cliEnv(fresh.dataDir, fresh.databaseUrl, { PORT: String(port), LOG_LEVEL: 'info' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        // Both the listening log line (stdout) and the link (stderr), in whichever order they come.
        const output = await waitForOutput(child, /(?=[\s\S]*"msg":"listening")(?=[\s\S]*\/auth\/login\?token=\S+\s)/);
        // The link goes to stderr, never among the JSON log lines on stdout.
        expect(out).not.toContain('/auth/login?token=');
        const link = /(http:\/\/127\.0\.0\.1:\d+\/auth\/login\?token=\S+)/.exec(output)![1]!;
        const login = await fetch(link, { redirect: 'manual' });
        expect(login.status).toBe(303);
        const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
        const me = await fetch(`http://127.0.0.1:${port}/api/me`, { headers: { cookie } });
        expect(me.status).toBe(200);
        const body = await me.json();
        expect(body.user.imOpenId).toBe('demo-owner');
        expect(body.organizations).toEqual([expect.objectContaining({ slug: 'demo', role: 'OWNER' })]);
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('close', resolve));
        await fresh.drop();
      }
    },
  );
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
