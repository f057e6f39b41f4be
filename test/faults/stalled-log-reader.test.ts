import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, metric, startServe, type ServeProcess } from './support.js';

/**
 * `hub serve | shipper` with a shipper that stops reading: stdout is a real pipe (a FIFO) whose
 * read end this test holds and does not read until it says so.
 */
describe('a stalled reader of stdout', () => {
  let dir: string;
  let readFd: number;
  let server: ServeProcess;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-fault-log-'));
    const fifo = path.join(dir, 'stdout.fifo');
    execFileSync('mkfifo', [fifo]);
    readFd = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const writeFd = fs.openSync(fifo, fs.constants.O_WRONLY);
    server = await startServe({
      dataDir: path.join(dir, 'data'),
      stdout: writeFd,
      env: { HUB_LOG_BUFFER_BYTES: '16384' },
    });
    fs.closeSync(writeFd);
  });

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers every request, drops and counts log lines, and logs again once the reader resumes', async () => {
    // Far more access-log lines than the pipe and the buffer hold together.
    const statuses = await requests(server, 1_500);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(server.child.exitCode).toBeNull();
    expect(await metric(server, 'hub_log_lines_dropped_total')).toBeGreaterThan(0);
    expect(server.stderr()).toContain('log output stalled');
    expect(server.stderr()).not.toMatch(/RangeError|Unhandled|uncaught/i);

    const reader = new Socket({ fd: readFd, readable: true, writable: false });
    let output = '';
    reader.on('data', (chunk) => (output += chunk));
    await until(() => server.stderr().includes('log output resumed'));
    const droppedBefore = await metric(server, 'hub_log_lines_dropped_total');

    const marker = `/api/org/demo/resumed-${Date.now()}`;
    expect((await call(server, 'GET', marker)).status).toBe(404);
    await until(() => output.includes(marker));
    expect(await metric(server, 'hub_log_lines_dropped_total')).toBe(droppedBefore);
    expect(server.child.exitCode).toBeNull();
    reader.destroy();
  });
});

/** `count` requests of `/api/me`, four at a time; each one's status. */
async function requests(server: ServeProcess, count: number): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      statuses.push((await call(server, 'GET', '/api/me')).status);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return statuses;
}

/** Polls `condition` until it holds; the test's own time limit guards against never. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}
