import fs from 'node:fs';

/**
 * The IPC protocol between the orchestrator (bench/run.ts) and a server child
 * (bench/servers/*.ts). Both sides import it, so a message shape changes in one place.
 *
 * child  → parent: `ready` once listening (or `failed` if set-up threw), then one `cpu`
 *                  reply per `cpu` request.
 * parent → child:  `cpu` (report process.cpuUsage()), `stop` (close, clean up, exit).
 */

/** One request the load generator sends: our server decides it (it owns the session cookies and ids). */
export interface LoadTarget {
  /** Short name for the report: `members`, `explorer`, `project`. */
  name: string;
  path: string;
  headers: Record<string, string>;
  /** GET unless said; a POST sends `body` (JSON text) with every request. */
  method?: 'GET' | 'POST';
  body?: string;
  /** What a correct answer holds; checked once before any load is applied. */
  expect: { listKey?: string; items?: number; id?: string; decision?: string };
}

export interface ReadyMessage {
  type: 'ready';
  port: number;
  /** Only our server sends them; the comparison servers are loaded with the same requests. */
  targets?: LoadTarget[];
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

/**
 * The comparison servers learn what to answer from their first argument: a JSON file mapping each
 * path to the JSON text our server answered there. They parse it once and serialize it per request,
 * as Express's res.json and our handlers do.
 */
export function answersArgument(argv: readonly string[] = process.argv): Map<string, unknown> {
  const file = argv[2];
  if (!file) throw new Error('expected the answers file (path → JSON text) as first argument');
  const texts = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
  return new Map(Object.entries(texts).map(([path, text]) => [path, JSON.parse(text) as unknown]));
}

export function isChildMessage(value: unknown): value is ChildMessage {
  const type = (value as { type?: unknown } | null)?.type;
  return type === 'ready' || type === 'failed' || type === 'cpu';
}

export function isParentMessage(value: unknown): value is ParentMessage {
  const type = (value as { type?: unknown } | null)?.type;
  return type === 'cpu' || type === 'stop';
}
