import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, isRoot, startServe, type ServeProcess } from './support.js';

/**
 * PostgreSQL stopped with `pg_ctl stop` under load, then started again. The cluster is this
 * file's own (initdb on loopback, run as the `postgres` user as CI runs its own): stopping the
 * cluster the other test files share would fail them, not this service. The PostgreSQL pass only.
 */
const pgBin = postgresBin();
const runnable = Boolean(process.env.TEST_DATABASE_URL) && isRoot && pgBin !== undefined;
if (process.env.TEST_DATABASE_URL && !runnable)
  console.warn('test/faults/postgres-stopped.test.ts skipped: it needs root and initdb/pg_ctl');

describe.skipIf(!runnable)('PostgreSQL stopped mid-load', () => {
  let dir: string;
  let port: number;
  let server: ServeProcess;
  const pgCtl = (...args: string[]) =>
    execFileSync('runuser', ['-u', 'postgres', '--', path.join(pgBin!, 'pg_ctl'), '-D', `${dir}/pg`, ...args], {
      stdio: 'ignore',
    });
  const startPostgres = () =>
    pgCtl(
      '-l',
      `${dir}/pg.log`,
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      '-w',
      'start',
    );
  const url = () => `postgres://postgres@127.0.0.1:${port}/postgres`;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-fault-pg-'));
    fs.chmodSync(dir, 0o755);
    execFileSync('chown', ['postgres', dir]);
    execFileSync(
      'runuser',
      ['-u', 'postgres', '--', path.join(pgBin!, 'initdb'), '-D', `${dir}/pg`, '-U', 'postgres', '-A', 'trust'],
      {
        stdio: 'ignore',
      },
    );
    port = await freePort();
    startPostgres();
    fs.mkdirSync(`${dir}/data`);
    server = await startServe({ dataDir: `${dir}/data`, databaseUrl: url(), env: { HUB_DB_WAIT_MS: '3000' } });
  });

  afterAll(async () => {
    await server?.stop();
    if (dir) {
      try {
        pgCtl('-m', 'immediate', 'stop');
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers 503 database_unavailable while it is down, writes nothing partial, and recovers by itself', async () => {
    const answers: { slug: string; status: number; code?: string }[] = [];
    let created = 0;
    const load = async (worker: number, count: number) => {
      for (let i = 0; i < count; i++) {
        const slug = `w${worker}-${created++}`;
        const res = await call(server, 'POST', '/api/org/demo/teams', { slug, name: slug });
        answers.push({ slug, status: res.status, code: res.body.error?.code });
      }
    };
    const running = Promise.all([load(1, 40), load(2, 40), load(3, 40)]);
    while (answers.length < 15) await new Promise((resolve) => setTimeout(resolve, 20));
    pgCtl('-m', 'fast', 'stop');
    await running;

    const unavailable = answers.filter((a) => a.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const answer of answers) expect([201, 503], JSON.stringify(answer)).toContain(answer.status);
    for (const answer of unavailable) expect(answer.code).toBe('database_unavailable');
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(503);
    expect(server.child.exitCode).toBeNull();

    startPostgres();
    let recovered = 0;
    for (let i = 0; i < 200 && recovered === 0; i++) {
      const res = await call(server, 'POST', '/api/org/demo/teams', { slug: `after-${i}`, name: 'After' });
      expect([201, 503]).toContain(res.status);
      if (res.status === 201) recovered++;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recovered).toBe(1);
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);

    // Every team written has its audit event, and every team a client was told of exists.
    const db = knexFactory({ client: 'pg', connection: url(), pool: { min: 0, max: 1 } });
    try {
      const teams = await db('teams').select<{ id: string; slug: string }[]>('id', 'slug');
      const audited = await db('audit_events').where({ action: 'createTeam' }).pluck<string[]>('target_id');
      expect(new Set(audited)).toEqual(new Set(teams.map((t) => t.id)));
      const slugs = new Set(teams.map((t) => t.slug));
      for (const answer of answers.filter((a) => a.status === 201)) expect(slugs.has(answer.slug)).toBe(true);
    } finally {
      await db.destroy();
    }
  });
});

function postgresBin(): string | undefined {
  const candidates = [
    '/usr/local/bin',
    ...(fs.existsSync('/usr/lib/postgresql')
      ? fs
          .readdirSync('/usr/lib/postgresql')
          .sort()
          .reverse()
          .map((version) => `/usr/lib/postgresql/${version}/bin`)
      : []),
  ];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl')));
}

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
