import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ask, stopChild } from './ipc.js';

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
  | { type: 'response'; id: number; status: number; bytes: number; text?: string }
  | { type: 'failed'; id: number; message: string };

/**
 * The parent's handle on an HTTP client process (bench/lib/http-client-child.ts): for the cases
 * whose server runs in the bench's own process, so that a timed request costs that thread the
 * server's work only. A timed call is a round trip over IPC besides the request (well under a
 * millisecond of small messages): the figures can only come out slower than the server's, never faster.
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
  async request(
    options: Omit<Extract<HttpClientMessage, { type: 'request' }>, 'type' | 'id'>,
  ): Promise<{ status: number; bytes: number; text?: string }> {
    const reply = await this.call({ type: 'request', id: ++this.nextId, ...options });
    if (reply.type !== 'response') throw new Error('HTTP client: unexpected reply');
    return { status: reply.status, bytes: reply.bytes, ...(reply.text === undefined ? {} : { text: reply.text }) };
  }

  stop(): void {
    stopChild(this.child);
  }

  private call(message: HttpClientMessage) {
    return ask<HttpClientReply>(this.child, message, 'HTTP client', 'the HTTP client process exited during a request');
  }
}
