/**
 * `logging`: what the log output costs per line, and that it keeps the event loop free when its
 * reader stalls. The service's own logger (src/log/logger.ts, info level, its redaction) writes
 * access-log lines as the request log does, through:
 *
 * - `sync`: the former destination, pino's synchronous sonic-boom (one write(2) per line);
 * - `output`: today's `stdoutLogOutput` choice for that descriptor (log-output.ts);
 *
 * to /dev/null and to a pipe drained by `cat` (`hub serve | shipper`), in interleaved rounds, as
 * CPU µs per line of this process. Then the new output on a pipe nobody reads: CPU per line while
 * lines fill its buffer and are dropped, and the longest turn of the event loop meanwhile.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { DescriptorLogOutput, StreamLogOutput, type LogOutput } from '../../src/log/log-output.js';
import { createLogger } from '../../src/log/logger.js';
import type { BenchCase } from './case.js';
import { envInteger } from '../lib/env.js';

const LINES = envInteger('BENCH_LOG_LINES', 100_000, 1_000, 10_000_000);
const ROUNDS = envInteger('BENCH_LOG_ROUNDS', 5, 1, 50);
const quiet = () => {};

let dir: string | undefined;
const readers: ChildProcess[] = [];

export const loggingCase: BenchCase = {
  name: 'logging',
  summary: 'CPU per access-log line, former synchronous destination vs the bounded output; a stalled pipe',
  async run() {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-bench-log-'));
    const drained = drainedPipe(dir);
    const destinations: Record<string, () => pino.DestinationStream | LogOutput> = {
      'sync, /dev/null': () => pino.destination({ dest: '/dev/null', sync: true }),
      'output, /dev/null': () => new DescriptorLogOutput(fs.openSync('/dev/null', 'w'), quiet),
      'sync, pipe': () => pino.destination({ dest: fs.openSync(drained, 'w'), sync: true }),
      'output, pipe': () => new StreamLogOutput(pipeSocket(drained), 4 * 1024 * 1024, quiet),
    };
    const samples = new Map<string, number[]>(Object.keys(destinations).map((name) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, make] of Object.entries(destinations)) {
        const destination = make();
        samples.get(name)!.push(await cpuPerLine(destination));
      }
    }
    console.log(`logging: ${LINES} access-log lines per sample, ${ROUNDS} interleaved rounds, CPU µs per line`);
    for (const [name, values] of samples) {
      const sorted = [...values].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)]!;
      console.log(
        `  ${name.padEnd(18)} median ${median.toFixed(2)} µs  ` +
          `(min ${sorted[0]!.toFixed(2)}, max ${sorted.at(-1)!.toFixed(2)})`,
      );
    }

    const stalled = stalledPipe(dir);
    const output = new StreamLogOutput(pipeSocket(stalled), 4 * 1024 * 1024, quiet);
    const { cpuPerLine: stalledCpu, longestTurnMs } = await stalledRun(output);
    console.log(
      `  stalled pipe: ${stalledCpu.toFixed(2)} µs per line, ${output.dropped} of ${LINES} dropped, ` +
        `longest turn of 1,000 lines ${longestTurnMs.toFixed(1)} ms`,
    );
    return 0;
  },
  async abort() {
    for (const reader of readers.splice(0)) reader.kill('SIGKILL');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  },
};

/** A FIFO that `cat` drains to /dev/null. */
function drainedPipe(root: string): string {
  const fifo = path.join(root, 'drained.fifo');
  execFileSync('mkfifo', [fifo]);
  readers.push(spawn('sh', ['-c', `exec cat "${fifo}" > /dev/null`], { stdio: 'ignore' }));
  return fifo;
}

/** A FIFO whose reader holds it open and never reads. */
function stalledPipe(root: string): string {
  const fifo = path.join(root, 'stalled.fifo');
  execFileSync('mkfifo', [fifo]);
  readers.push(spawn('sh', ['-c', `exec sleep 3600 < "${fifo}"`], { stdio: 'ignore' }));
  return fifo;
}

/** The write end of a FIFO as Node makes stdout when it is a pipe: a non-blocking socket. */
function pipeSocket(fifo: string): Socket {
  return new Socket({ fd: fs.openSync(fifo, 'w'), readable: false, writable: true });
}

/** CPU of this process per access-log line written through `destination`, in µs, once the output has drained. */
async function cpuPerLine(destination: pino.DestinationStream | LogOutput): Promise<number> {
  const logger = createLogger({ level: 'info', destination: destination as pino.DestinationStream });
  const lines = logger.child({}, { redact: { paths: [] } });
  const started = process.cpuUsage();
  for (let i = 0; i < LINES; i++)
    lines.info(
      { reqId: '4f9d1c8e-0b7a-4c55-9a0e-2d3f1b6c7a81', method: 'GET', path: '/api/me', status: 200, ms: 1.23 },
      'request',
    );
  if ('settle' in destination) await destination.settle(60_000);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / LINES;
}

/**
 * Writes LINES lines to a stalled output, a batch of 1,000 per turn of the event loop, as a busy
 * server would: the CPU per line while they fill the buffer and are then dropped, and the longest
 * turn (on a quiet machine, the time of one batch: nothing waits on the reader).
 */
async function stalledRun(output: LogOutput): Promise<{ cpuPerLine: number; longestTurnMs: number }> {
  const logger = createLogger({ level: 'info', destination: output as pino.DestinationStream });
  let longestTurnMs = 0;
  const started = process.cpuUsage();
  for (let written = 0; written < LINES; written += 1_000) {
    const turn = performance.now();
    for (let i = 0; i < 1_000; i++) logger.info({ path: '/api/me', status: 200 }, 'request');
    await new Promise((resolve) => setImmediate(resolve));
    longestTurnMs = Math.max(longestTurnMs, performance.now() - turn);
  }
  const used = process.cpuUsage(started);
  return { cpuPerLine: (used.user + used.system) / LINES, longestTurnMs };
}
