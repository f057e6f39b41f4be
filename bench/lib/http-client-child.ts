/**
 * An HTTP client as a process of its own (see bench/lib/http-client.ts): sends one request per
 * `request` message over a keep-alive connection and answers with the status and, when asked, the
 * body. Bodies arrive beforehand in `body` messages, outside any timing. Its CPU (serializing,
 * writing, reading the answer) then never runs on the thread of the server it measures.
 */
import http from 'node:http';
import type { HttpClientMessage, HttpClientReply } from './http-client.js';

if (!process.send) throw new Error('the HTTP client runs as a child of the bench (it needs an IPC channel)');

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const bodies = new Map<string, Buffer>();

function send(message: HttpClientMessage & { type: 'request' }): Promise<HttpClientReply> {
  const body = message.bodyId === undefined ? undefined : bodies.get(message.bodyId);
  // A rejection, not a throw: a throw here would end the process instead of failing the request.
  if (message.bodyId !== undefined && !body) return Promise.reject(new Error(`no body ${message.bodyId}`));
  return new Promise((resolve, reject) => {
    const headers = { ...message.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
    const signal = message.timeoutMs === undefined ? undefined : AbortSignal.timeout(message.timeoutMs);
    // The request is timed here, from its start to its answer's last byte: the parent's own clock
    // would add the IPC round trip to this process, which is no part of the answer.
    const started = performance.now();
    const req = http.request(message.url, { method: message.method, headers, agent, signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const clientElapsedMs = performance.now() - started;
        const status = res.statusCode ?? 0;
        const body = Buffer.concat(chunks);
        // The text only when wanted, or to explain a failure: 2 MB over IPC is not the answer's cost.
        const text = message.wantText || status !== 200 ? body.toString('utf8') : undefined;
        resolve({
          type: 'response',
          id: message.id,
          status,
          bytes: body.length,
          clientElapsedMs,
          ...(text === undefined ? {} : { text }),
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

process.on('message', (message: HttpClientMessage) => {
  if (message.type === 'body') {
    bodies.set(message.bodyId, Buffer.from(message.bytes));
    process.send!({ type: 'stored', id: message.id } satisfies HttpClientReply);
    return;
  }
  send(message).then(
    (reply) => process.send!(reply),
    (err: unknown) =>
      process.send!({
        type: 'failed',
        id: message.id,
        message: err instanceof Error ? err.message : String(err),
      } satisfies HttpClientReply),
  );
});
process.once('disconnect', () => process.exit(0));
