/**
 * The load generator as a process of its own (pinned to another CPU than the servers by
 * bench/lib/loader.ts): runs one autocannon load per `load` message and answers with the counts
 * and latency percentiles, so its own CPU never competes with the server it measures.
 */
import { runLoad } from './load.js';
import type { LoaderReply, LoaderRequest } from './loader.js';

if (!process.send) throw new Error('the loader runs as a child of the bench (it needs an IPC channel)');

process.on('message', (message: LoaderRequest) => {
  if (message?.type !== 'load') return;
  runLoad(message.options).then(
    (result) => {
      const reply: LoaderReply = {
        type: 'loaded',
        id: message.id,
        completed: result.completed,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        statusCodes: result.statusCodes,
        elapsedSec: result.elapsedSec,
        p50Ms: result.latency.percentile(50),
        p99Ms: result.latency.percentile(99),
      };
      process.send!(reply);
    },
    (err: unknown) => {
      process.send!({ type: 'failed', id: message.id, message: err instanceof Error ? err.message : String(err) });
    },
  );
});
process.once('disconnect', () => process.exit(0));
