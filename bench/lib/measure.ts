import type { ServerChild } from './child.js';
import { runLoad } from './load.js';

/** The one request every server is loaded with (ours decides it; see protocol.ts). */
export interface LoadRequest {
  path: string;
  headers: Record<string, string>;
}

export interface BenchParams {
  warmupSec: number;
  durationSec: number;
  connections: number;
}

/** One server's figures for the measured window (the warm-up is not counted). */
export interface ServerFigures {
  name: string;
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Server CPU (user + system) over the measured window divided by the answers in it. */
  cpuMicrosPerRequest: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
}

/**
 * Warms the server up (JIT, the validator's lazily compiled spec, caches, pools), then loads it
 * for the measured window while reading the child's CPU time on both sides of that window.
 */
export async function measureServer(
  server: ServerChild,
  request: LoadRequest,
  params: BenchParams,
): Promise<ServerFigures> {
  const url = server.baseUrl + request.path;
  const load = { url, headers: request.headers, connections: params.connections };
  await runLoad({ ...load, durationSec: params.warmupSec });

  const cpuBefore = await server.cpuMicros();
  const result = await runLoad({ ...load, durationSec: params.durationSec });
  const cpuAfter = await server.cpuMicros();

  return {
    name: server.name,
    requests: result.completed,
    reqPerSec: result.completed / result.elapsedSec,
    p50Ms: result.latency.percentile(50),
    p99Ms: result.latency.percentile(99),
    cpuMicrosPerRequest: result.completed > 0 ? (cpuAfter - cpuBefore) / result.completed : Number.NaN,
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes: result.statusCodes,
  };
}
