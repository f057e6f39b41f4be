import autocannon from 'autocannon';
import { LatencyHistogram } from './latency.js';

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  /** GET unless said; a POST sends `body` with every request. */
  method?: 'GET' | 'POST';
  body?: string;
  durationSec: number;
  connections: number;
}

export interface LoadResult {
  /** Answers received, whatever their status: the server did the work for each. */
  completed: number;
  non2xx: number;
  /** Connection errors and timeouts: requests that got no answer at all. */
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  elapsedSec: number;
  latency: LatencyHistogram;
}

/** Seconds after which a single request counts as timed out; far above any healthy answer here. */
const REQUEST_TIMEOUT_SEC = 10;

/** One autocannon run of requests (GET unless said) against `url`, keep-alive, no pipelining. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latency = new LatencyHistogram();
  let completed = 0;
  const started = process.hrtime.bigint();
  const instance = autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    ...(options.body === undefined ? {} : { body: options.body }),
    connections: options.connections,
    duration: options.durationSec,
    timeout: REQUEST_TIMEOUT_SEC,
  });
  // Counted here, not from autocannon's summary, to get sub-millisecond latencies (see latency.ts).
  instance.on('response', (_client, _status, _bytes, latencyMs) => {
    completed += 1;
    latency.record(latencyMs);
  });
  const result = await instance;
  const elapsedSec = Number(process.hrtime.bigint() - started) / 1e9;
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]),
  );
  return {
    completed,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    elapsedSec,
    latency,
  };
}
