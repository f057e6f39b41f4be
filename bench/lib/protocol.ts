/**
 * The IPC protocol between the orchestrator (bench/run.ts) and a server child
 * (bench/servers/*.ts). Both sides import it, so a message shape changes in one place.
 *
 * child  → parent: `ready` once listening (or `failed` if set-up threw), then one `cpu`
 *                  reply per `cpu` request.
 * parent → child:  `cpu` (report process.cpuUsage()), `stop` (close, clean up, exit).
 */

/** What the load generator sends: our server decides it (it owns the session cookie and slug). */
export interface LoadTarget {
  path: string;
  headers: Record<string, string>;
  /** The JSON body a correct answer carries; checked once before any load is applied. */
  expectedBody: unknown;
}

export interface ReadyMessage {
  type: 'ready';
  port: number;
  /** Only our server sends one; the comparison servers are loaded with the same request. */
  target?: LoadTarget;
}

export interface FailedMessage {
  type: 'failed';
  message: string;
}

export interface CpuReply {
  type: 'cpu';
  id: number;
  /** Cumulative process.cpuUsage() of the child, in microseconds. */
  user: number;
  system: number;
}

export type ChildMessage = ReadyMessage | FailedMessage | CpuReply;

export type ParentMessage = { type: 'cpu'; id: number } | { type: 'stop' };

/** The comparison servers learn the body size to answer with from their first argument. */
export function bodyBytesArgument(argv: readonly string[] = process.argv): number {
  const raw = argv[2];
  const bytes = Number(raw);
  if (!raw || !Number.isInteger(bytes) || bytes <= 0)
    throw new Error(`expected the JSON body size in bytes as first argument, got "${raw}"`);
  return bytes;
}

export function isChildMessage(value: unknown): value is ChildMessage {
  const type = (value as { type?: unknown } | null)?.type;
  return type === 'ready' || type === 'failed' || type === 'cpu';
}

export function isParentMessage(value: unknown): value is ParentMessage {
  const type = (value as { type?: unknown } | null)?.type;
  return type === 'cpu' || type === 'stop';
}
