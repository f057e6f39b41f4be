import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runHub } from '../support/hub-cli.js';
import { skillMd } from '../skills/support.js';
import { runLine, writeJsonl } from '../support/usage-runs.js';
import { call, isRoot, startServe, type ServeProcess } from './support.js';

/**
 * The data directory on a small tmpfs that this test fills up. Mounting needs root (CI runs as
 * root); elsewhere the file says so and skips. The SQLite pass only: on PostgreSQL the data
 * directory holds no database and no skill store.
 */
const mountable = isRoot && !process.env.TEST_DATABASE_URL && canMountTmpfs();
if (!mountable)
  console.warn('test/faults/full-disk.test.ts skipped: it mounts a tmpfs (needs root) and runs on the SQLite pass');

describe.skipIf(!mountable)('a full disk under the data directory', () => {
  let dir: string;
  let dataDir: string;
  let server: ServeProcess;
  let projectId: string;
  const filler = () => path.join(dataDir, 'filler');

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-fault-disk-'));
    dataDir = path.join(dir, 'data');
    fs.mkdirSync(dataDir);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', dataDir]);
    server = await startServe({ dataDir });
    const project = await call(server, 'POST', '/api/org/demo/projects', { name: 'Ingested' });
    projectId = project.body.id as string;
  });

  afterAll(async () => {
    await server?.stop();
    if (dataDir) execFileSync('umount', ['-l', dataDir]);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses writes with 507 storage_full, writes nothing partial, and works again once space is freed', async () => {
    fill(filler());
    // SQLite may still have room in its write-ahead log for a few small writes: write until it has none.
    let refused: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 500 && !refused; i++) {
      const team = await call(server, 'POST', '/api/org/demo/teams', { slug: `t-${i}`, name: `Team ${i}` });
      expect([201, 507]).toContain(team.status);
      if (team.status === 507) refused = team;
    }
    expect(refused?.body.error?.code).toBe('storage_full');
    expect(refused?.body.error?.message).toMatch(/out of storage space/);

    const token = await call(server, 'POST', '/api/org/demo/api-tokens', { name: 'full', scopes: ['org:read'] });
    expect(token.status).toBe(507);
    const skill = await call(server, 'PUT', '/api/org/demo/agent-skills/full-disk', {
      version: '1.0.0',
      files: [skillMd('full-disk'), { path: 'big.md', content: 'x'.repeat(1_000_000) }],
    });
    expect(skill.status).toBe(507);
    expect(skill.body.error?.code).toBe('storage_full');
    const runs = writeJsonl(
      dir,
      'runs.jsonl',
      Array.from({ length: 2_000 }, (_, i) => runLine(projectId, `s-${i}`, '2026-11-01T00:00:00Z')),
    );
    const ingest = await runHub(['usage', 'ingest', runs, '--org', 'demo'], cliEnv(dataDir, undefined));
    expect(ingest.code).toBe(1);
    expect(ingest.stderr).toMatch(/^hub usage: .*(out of storage space|disk is full)/);

    expect(server.child.exitCode).toBeNull();
    expect(stagingLeftovers(dataDir)).toEqual([]);
    const counts = await countRows(dataDir);
    expect(counts.runs).toBe(0);
    expect(counts.integrity).toBe('ok');

    fs.rmSync(filler());
    const afterTeam = await call(server, 'POST', '/api/org/demo/teams', { slug: 'after', name: 'After' });
    expect(afterTeam.status).toBe(201);
    expect((await call(server, 'POST', '/api/org/demo/api-tokens', { name: 'ok', scopes: ['org:read'] })).status).toBe(
      201,
    );
    const installed = await call(server, 'PUT', '/api/org/demo/agent-skills/full-disk', {
      version: '1.0.0',
      files: [skillMd('full-disk'), { path: 'big.md', content: 'x'.repeat(1_000_000) }],
    });
    expect(installed.status).toBe(200);
    const retried = await runHub(['usage', 'ingest', runs, '--org', 'demo'], cliEnv(dataDir, undefined));
    expect(retried.code, retried.stderr).toBe(0);
    expect((await countRows(dataDir)).runs).toBe(2_000);
  });
});

function canMountTmpfs(): boolean {
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

/** Writes `file` until the file system has no byte left. */
function fill(file: string): void {
  const fd = fs.openSync(file, 'w');
  try {
    for (const size of [1 << 20, 4096, 1]) {
      const chunk = Buffer.alloc(size);
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Staging directories of skill installs left in the skill store (`.tmp-*`), anywhere under `dir`. */
function stagingLeftovers(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((entry) => path.basename(entry).startsWith('.tmp-'));
}

/** The ingested runs and SQLite's own integrity check, read by another connection to the file. */
function countRows(dataDir: string): Promise<{ runs: number; integrity: string }> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path.join(dataDir, 'hub.sqlite'), sqlite3.OPEN_READONLY);
    db.get('select count(*) as n from runs', (err, row: { n: number }) => {
      if (err) return reject(err);
      db.get('pragma integrity_check', (err2, check: { integrity_check: string }) => {
        db.close();
        if (err2) return reject(err2);
        resolve({ runs: row.n, integrity: check.integrity_check });
      });
    });
  });
}
