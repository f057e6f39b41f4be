import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ask, type IpcReply, stopChild } from './ipc.js';

export type ReceiverMessage = { type: 'count'; id: number };
export type ReceiverReply =
  | (IpcReply & { type: 'ready'; port: number })
  | (IpcReply & { type: 'count'; received: number })
  | (IpcReply & { type: 'failed'; message: string });

/** The bench's handle on a webhook receiver process (bench/lib/webhook-receiver-child.ts) on loopback. */
export class WebhookReceiverChild {
  private nextId = 0;

  private constructor(
    private readonly child: ChildProcess,
    /** `http://127.0.0.1:<port>`; any path is received alike. */
    readonly origin: string,
  ) {}

  static async start(): Promise<WebhookReceiverChild> {
    const child = fork(fileURLToPath(new URL('./webhook-receiver-child.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const ready = await ask<ReceiverReply>(child, { id: 0 }, 'webhook receiver', 'the webhook receiver exited');
    if (ready.type !== 'ready') throw new Error('webhook receiver: unexpected first message');
    return new WebhookReceiverChild(child, `http://127.0.0.1:${ready.port}`);
  }

  /** How many deliveries it has answered so far. */
  async received(): Promise<number> {
    const message: ReceiverMessage = { type: 'count', id: ++this.nextId };
    const reply = await ask<ReceiverReply>(this.child, message, 'webhook receiver', 'the webhook receiver exited');
    if (reply.type !== 'count') throw new Error('webhook receiver: unexpected reply');
    return reply.received;
  }

  stop(): void {
    stopChild(this.child);
  }
}
