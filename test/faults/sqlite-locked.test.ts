import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startServe, type ServeProcess } from './support.js';

/**
 * Another process holds SQLite's write lock (a backup, a long maintenance transaction): this test
 * process opens the server's file and runs `BEGIN IMMEDIATE` on it. The SQLite pass only.
 */
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('SQLite held by another process', () => {
  let dir: string;
  let server: ServeProcess;
  let holder: sqlite3.Database;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-fault-lock-'));
    server = await startServe({ dataDir: dir, env: { HUB_DB_WAIT_MS: '300' } });
    holder = new sqlite3.Database(path.join(dir, 'hub.sqlite'));
  });

  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => holder?.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers writes 503 database_busy after the wait, keeps reading, and writes again once released', async () => {
    await run(holder, 'begin immediate');
    const answers = [];
    for (let i = 0; i < 5; i++)
      answers.push(await call(server, 'POST', '/api/org/demo/teams', { slug: `held-${i}`, name: 'Held' }));
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.body.error?.code).toBe('database_busy');
    }
    // Readers are not blocked by a writer's lock.
    expect((await call(server, 'GET', '/api/org/demo/teams')).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);

    await run(holder, 'rollback');
    expect((await call(server, 'POST', '/api/org/demo/teams', { slug: 'released', name: 'Released' })).status).toBe(
      201,
    );
    const teams = (await call(server, 'GET', '/api/org/demo/teams')).body.teams as { slug: string }[];
    expect(teams.map((team) => team.slug)).toEqual(['released']);
    expect(server.child.exitCode).toBeNull();
  });
});

function run(db: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => db.run(sql, (err) => (err ? reject(err) : resolve())));
}
