import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ask, stopChild } from './ipc.js';
import type { SelfTimed } from './timing.js';

/** parent → child: store a body for later requests, or send a request. */
export type HttpClientMessage =
  | { type: 'body'; id: number; bodyId: string; bytes: Uint8Array }
  | {
      type: 'request';
      id: number;
      method: string;
      url: string;
      headers: Record<string, string>;
      bodyId?: string;
      wantText?: boolean;
      /** Abort the request after this long. */
      timeoutMs?: number;
    };

/** child → parent. */
export type HttpClientReply =
  | { type: 'stored'; id: number }
  | { type: 'response'; id: number; status: number; bytes: number; clientElapsedMs: number; text?: string }
  | { type: 'failed'; id: number; message: string };

/** An answer read whole by the client process, with the time the request took there. */
export interface ClientAnswer extends SelfTimed {
  status: number;
  bytes: number;
  /** The answer's text, when it was asked for (or the status was not 200). */
  text?: string;
}

/**
 * The parent's handle on an HTTP client process (bench/lib/http-client-child.ts): for the cases
 * whose server runs in the bench's own process, so that a timed request costs that thread the
 * server's work only. Each answer carries the request's duration as the client process measured it
 * (`clientElapsedMs`, from sending the request to the last byte of the answer); the timing helpers
 * (bench/lib/timing.ts) take that figure, so the IPC round trip to the process is not counted as
 * the request's.
 */
export class HttpClientChild {
  private nextId = 0;

  private constructor(private readonly child: ChildProcess) {}

  static start(): HttpClientChild {
    const child = fork(fileURLToPath(new URL('./http-client-child.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // Structured clone: a body crosses as bytes, not as JSON of its bytes.
      serialization: 'advanced',
    });
    return new HttpClientChild(child);
  }

  /** Hands the child a body, untimed, for requests that name `bodyId`. */
  async storeBody(bodyId: string, bytes: Uint8Array): Promise<void> {
    await this.call({ type: 'body', id: ++this.nextId, bodyId, bytes });
  }

  /** One request; the body text comes back only with `wantText` (or when the status is not 200). */
  async request(options: Omit<Extract<HttpClientMessage, { type: 'request' }>, 'type' | 'id'>): Promise<ClientAnswer> {
    const reply = await this.call({ type: 'request', id: ++this.nextId, ...options });
    if (reply.type !== 'response') throw new Error('HTTP client: unexpected reply');
    const { status, bytes, clientElapsedMs, text } = reply;
    return { status, bytes, clientElapsedMs, ...(text === undefined ? {} : { text }) };
  }

  stop(): void {
    stopChild(this.child);
  }

  private call(message: HttpClientMessage) {
    return ask<HttpClientReply>(this.child, message, 'HTTP client', 'the HTTP client process exited during a request');
  }
}
