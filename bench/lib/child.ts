import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBundle } from '../../bin/bundle.js';
import { isChildMessage, type CpuReply, type LoadTarget, type ParentMessage } from './protocol.js';

/** Start-up includes running migrations and seeding; a healthy child is ready in seconds. */
const READY_TIMEOUT_MS = 60_000;
const CPU_REPLY_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 10_000;

/**
 * The node flags `hub` runs with in production: those of `bin/hub.js`'s interpreter line
 * (`#!/usr/bin/env -S node <flags>`) in the given checkout, so a bench server measures the
 * configuration operators run.
 */
export function hubNodeFlags(checkoutRoot: string): string[] {
  const [first = ''] = fs.readFileSync(path.join(checkoutRoot, 'bin/hub.js'), 'utf8').split('\n', 1);
  const interpreter = /^#!\S*env(?: -S)? node((?: --?[\w-]+(?:=\S+)?)*)$/.exec(first);
  if (!interpreter) throw new Error(`bin/hub.js: an interpreter line this bench does not read: ${first}`);
  return interpreter[1]!.split(' ').filter(Boolean);
}

export interface ServerChildOptions {
  /** Arguments for the entry (the comparison servers take the body size). */
  args?: string[];
  /** Extra node flags for this child only, e.g. `--cpu-prof`. */
  nodeFlags?: string[];
}

/**
 * The parent's handle on one server child: its entry (bench/servers/<x>.ts of this checkout or
 * of the baseline's) bundled as `hub` runs in production (bin/bundle.js: the sources in one file,
 * packages loaded natively, no TypeScript loader in the process to add its memory and CPU),
 * stderr shared with the terminal so a crash is visible (stdout on /dev/null), and its own process so its CPU time is
 * measured apart from the load generator's.
 */
export class ServerChild {
  private nextId = 0;
  private exited = false;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    readonly port: number,
    readonly targets: LoadTarget[] | undefined,
  ) {
    child.once('exit', () => {
      this.exited = true;
    });
  }

  static async start(name: string, entry: URL, options: ServerChildOptions = {}): Promise<ServerChild> {
    const file = fileURLToPath(entry);
    const root = path.resolve(path.dirname(file), '../..');
    const { bundle } = await buildBundle(root, { entry: path.relative(root, file), name: `bench-server-${name}` });
    const child = fork(bundle, options.args ?? [], {
      execArgv: options.nodeFlags ?? [],
      // stdout to /dev/null: our server logs a line per request there, as in production.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    return new Promise<ServerChild>((resolve, reject) => {
      const fail = (reason: string): void => {
        cleanup();
        child.kill('SIGKILL');
        reject(new Error(`${name} server: ${reason}`));
      };
      const onMessage = (message: unknown): void => {
        if (!isChildMessage(message)) return;
        if (message.type === 'failed') {
          fail(`set-up failed:\n${message.message}`);
          return;
        }
        if (message.type !== 'ready') return;
        cleanup();
        resolve(new ServerChild(name, child, message.port, message.targets));
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
        fail(`exited before it was ready (code ${code}, signal ${signal})`);
      const onError = (err: Error): void => fail(err.message);
      const timer = setTimeout(() => fail(`not ready after ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
      const cleanup = (): void => {
        clearTimeout(timer);
        child.off('message', onMessage).off('exit', onExit).off('error', onError);
      };
      child.on('message', onMessage).once('exit', onExit).once('error', onError);
    });
  }

  /** The child's process id, for /proc figures and CPU pinning. */
  get pid(): number {
    return this.child.pid!;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The child's cumulative CPU time (user + system), in microseconds. */
  cpuMicros(): Promise<number> {
    const id = ++this.nextId;
    return new Promise<number>((resolve, reject) => {
      const onMessage = (message: unknown): void => {
        if (!isChildMessage(message) || message.type !== 'cpu' || message.id !== id) return;
        done();
        const reply: CpuReply = message;
        resolve(reply.user + reply.system);
      };
      const onExit = (): void => {
        done();
        reject(new Error(`${this.name} server exited while asked for its CPU time`));
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${this.name} server did not report its CPU time within ${CPU_REPLY_TIMEOUT_MS / 1000} s`));
      }, CPU_REPLY_TIMEOUT_MS);
      const done = (): void => {
        clearTimeout(timer);
        this.child.off('message', onMessage).off('exit', onExit);
      };
      this.child.on('message', onMessage).once('exit', onExit);
      this.send({ type: 'cpu', id });
    });
  }

  /** Asks the child to close and clean up; kills it if it has not exited in time. Never throws. */
  async stop(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    try {
      this.send({ type: 'stop' });
    } catch {
      // The channel is already closed: the kill below is all that is left to do.
    }
    const timer = setTimeout(() => this.kill(), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  /** Last resort (error paths, signals): no clean-up in the child, but no orphan either. */
  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }

  private send(message: ParentMessage): void {
    if (!this.child.connected) throw new Error(`${this.name} server is not connected`);
    this.child.send(message);
  }
}
