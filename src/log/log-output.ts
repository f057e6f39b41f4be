import fs from 'node:fs';
import type { Writable } from 'node:stream';

/** The bytes of log lines a stalled reader of stdout may leave waiting before new lines are dropped. */
export const DEFAULT_LOG_BUFFER_BYTES = 4 * 1024 * 1024;

/** Where the output says what happened to it: one line per change, never a log line of its own. */
export type Notice = (line: string) => void;

/**
 * Where the log's JSON lines go: pino's destination for `hub serve`. Writing a log line never
 * blocks the event loop, never throws and never emits an unhandled error, whatever the reader of
 * stdout does; the counters say what was lost.
 */
export interface LogOutput {
  /** pino writes each line here. */
  write(line: string): void;
  /** Lines dropped since start: the buffer was full, or the output failed. */
  readonly dropped: number;
  /** Waits until the lines written so far have left the process, at most `timeoutMs`. */
  settle(timeoutMs: number): Promise<void>;
}

/**
 * The output for stdout, chosen by what stdout is.
 *
 * A pipe or a socket (`hub serve | shipper`, a container's log driver, journald) may stop being
 * read at any time. Its lines go through Node's own stream for it, which writes without blocking
 * and queues what the kernel does not take; the queue is bounded, and past the bound lines are
 * dropped and counted until the reader drains it. A write(2) made in place instead, as a
 * synchronous destination does, meets EAGAIN on such a descriptor (Node puts pipes in non-blocking
 * mode) and can only wait on the event loop or fail.
 *
 * A file or a terminal takes every write at once (or fails it, on a full disk): each line is one
 * write(2) in place, and a failed one is dropped and counted, so logging resumes as soon as the
 * disk has room again.
 */
export function stdoutLogOutput(options: { bufferBytes: number; notice?: Notice }): LogOutput {
  const notice = options.notice ?? stderrNotice;
  const type = descriptorType(1);
  if (type === 'stream') return new StreamLogOutput(process.stdout, options.bufferBytes, notice);
  return new DescriptorLogOutput(1, notice);
}

function descriptorType(fd: number): 'stream' | 'direct' {
  try {
    const stat = fs.fstatSync(fd);
    return stat.isFIFO() || stat.isSocket() ? 'stream' : 'direct';
  } catch {
    return 'direct';
  }
}

/**
 * Writes through a Node stream, dropping lines while more than `bufferBytes` wait in it. Dropping
 * starts with one notice and ends with another when the stream drains (the reader is back).
 * A stream that failed (EPIPE: the reader is gone for good) drops every later line.
 */
export class StreamLogOutput implements LogOutput {
  dropped = 0;
  private droppedBefore = 0;
  private dropping = false;
  private failed = false;

  constructor(
    private readonly stream: Writable,
    private readonly bufferBytes: number,
    private readonly notice: Notice,
  ) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (this.failed) return;
      this.failed = true;
      notice(`log output failed (${err.code ?? err.message}); log lines are dropped from now on`);
    });
    stream.on('drain', () => {
      if (!this.dropping) return;
      this.dropping = false;
      notice(`log output resumed; ${this.dropped - this.droppedBefore} log lines were dropped while it stalled`);
    });
  }

  write(line: string): void {
    if (this.failed || this.stream.destroyed) {
      this.dropped++;
      return;
    }
    if (this.stream.writableLength >= this.bufferBytes) {
      if (!this.dropping) {
        this.dropping = true;
        this.droppedBefore = this.dropped;
        this.notice(
          'log output stalled: stdout is not being read; log lines are dropped ' +
            '(hub_log_lines_dropped_total) until it is',
        );
      }
      this.dropped++;
      return;
    }
    this.stream.write(line);
  }

  settle(timeoutMs: number): Promise<void> {
    if (this.failed || this.stream.writableLength === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      this.stream.once('drain', done);
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
  }
}

/**
 * One write(2) per line on a descriptor that never blocks for long (a file, a terminal). A write
 * that fails (ENOSPC) drops its line; the next one tries again. A failure is noticed once, and
 * its end once.
 */
export class DescriptorLogOutput implements LogOutput {
  dropped = 0;
  private failing = false;

  constructor(
    private readonly fd: number,
    private readonly notice: Notice,
  ) {}

  write(line: string): void {
    try {
      fs.writeSync(this.fd, line);
      if (this.failing) {
        this.failing = false;
        this.notice('log output resumed');
      }
    } catch (err) {
      this.dropped++;
      if (!this.failing) {
        this.failing = true;
        this.notice(`log output failed (${(err as NodeJS.ErrnoException).code ?? 'error'}); log lines are dropped`);
      }
    }
  }

  settle(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Notices go to stderr through its own stream, which never blocks either; at most two per stall,
 * so what waits in it stays small even when stderr is the same stalled pipe. They are best effort:
 * a stderr nobody reads any more (EPIPE) must not stop the service either.
 */
const stderrNotice: Notice = (line) => {
  if (process.stderr.listenerCount('error') === 0) process.stderr.on('error', () => {});
  process.stderr.write(`hub: ${line}\n`);
};
