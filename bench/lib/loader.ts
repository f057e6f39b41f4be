import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadOptions, LoadResult } from './load.js';
import { ask, stopChild } from './ipc.js';
import { pin } from './proc.js';

export interface LoaderRequest {
  type: 'load';
  id: number;
  options: LoadOptions;
}

/** One load's figures, as the loader process measured them: its counts, and the latency percentiles. */
export interface LoaderReply extends Omit<LoadResult, 'latency'> {
  type: 'loaded';
  id: number;
  p50Ms: number;
  p99Ms: number;
}

type LoaderMessage = LoaderReply | { type: 'failed'; id: number; message: string };

/** The parent's handle on the load generator process (bench/lib/loader-child.ts). */
export class Loader {
  private nextId = 0;

  private constructor(private readonly child: ChildProcess) {}

  /** Forks the loader and pins it to `cpus` ('' leaves it where the scheduler puts it). */
  static start(cpus: string): Loader {
    const child = fork(fileURLToPath(new URL('./loader-child.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    pin(child.pid!, cpus);
    return new Loader(child);
  }

  load(options: LoadOptions): Promise<LoaderReply> {
    const request: LoaderRequest = { type: 'load', id: ++this.nextId, options };
    return ask<LoaderMessage>(this.child, request, 'load generator', 'the load generator exited during a load');
  }

  stop(): void {
    stopChild(this.child);
  }
}
