// Retry of 429 answers. The service refuses a request over its organization's rate with 429
// `rate_limited` and `Retry-After` before doing anything with it (docs/decisions.md,
// "Request pipeline"), so the same request may be sent again, whatever its method, once that
// time has passed. The client wraps its fetch with this, so `raw` retries as well.

/** How the client retries a 429 answer that carries `Retry-After`. */
export interface RetryOptions {
  /** Retries of one request at most. Default 2; 0 turns retrying off. */
  maxRetries?: number | undefined;
  /**
   * The longest wait, in milliseconds, for one retry. Default 30 000. When `Retry-After` asks
   * for longer, the client does not wait: the call throws the 429 `ApiError` at once.
   */
  maxWaitMs?: number | undefined;
  /**
   * Waits `ms` milliseconds; rejects with `signal.reason` once `signal` aborts. Defaults to a
   * timer. Tests pass their own to control time.
   */
  sleep?: ((ms: number, signal: AbortSignal | undefined) => Promise<void>) | undefined;
}

export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_WAIT_MS = 30_000;

type Fetch = (request: Request) => Promise<Response>;

/** A timer that an AbortSignal cancels. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * An HTTP date as `Retry-After` carries it (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`,
 * or the obsolete `Sunday, 06-Nov-94 08:49:37 GMT`. Checked before `Date.parse`, which would
 * also read `1.5` or `soon 3` as some date.
 */
const HTTP_DATE = /^[A-Za-z]{3,9}, \d{2}[ -][A-Za-z]{3}[ -]\d{2}(\d{2})? \d{2}:\d{2}:\d{2} GMT$/;

/**
 * Milliseconds to wait before a retry, from a `Retry-After` value: delay-seconds, or an
 * HTTP date (a date already past means now). `undefined` when absent or unreadable.
 */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = HTTP_DATE.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function nonNegative(name: string, value: number | undefined, fallback: number, integer: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || value < 0 || !(integer ? Number.isInteger(value) : Number.isFinite(value))) {
    throw new TypeError(`createOrgAdminClient: retry.${name} must be a non-negative ${integer ? 'integer' : 'number'}`);
  }
  return value;
}

/** The retry settings of `retry` (`true`/absent: defaults; `false`: none). */
export function retrySettings(retry: boolean | RetryOptions | undefined): Required<RetryOptions> {
  if (retry !== undefined && typeof retry !== 'boolean' && (typeof retry !== 'object' || retry === null)) {
    throw new TypeError('createOrgAdminClient: retry must be true, false or { maxRetries, maxWaitMs, sleep }');
  }
  const options = typeof retry === 'object' ? retry : {};
  if (options.sleep !== undefined && typeof options.sleep !== 'function') {
    throw new TypeError('createOrgAdminClient: retry.sleep must be a function');
  }
  return {
    maxRetries: retry === false ? 0 : nonNegative('maxRetries', options.maxRetries, DEFAULT_MAX_RETRIES, true),
    maxWaitMs: nonNegative('maxWaitMs', options.maxWaitMs, DEFAULT_MAX_WAIT_MS, false),
    sleep: options.sleep ?? sleep,
  };
}

/**
 * `fetch` that sends a request again after a 429 with `Retry-After`, at most `maxRetries`
 * times, waiting as asked when that is at most `maxWaitMs`. Otherwise the 429 is answered
 * as it came. The request's signal aborts the wait.
 */
export function retrying(fetch: Fetch, { maxRetries, maxWaitMs, sleep }: Required<RetryOptions>): Fetch {
  if (maxRetries === 0) return fetch;
  return async (request) => {
    for (let retries = 0; ; retries++) {
      // A body can be read once: every attempt but the last sends a copy.
      const attempt = retries < maxRetries ? request.clone() : request;
      const response = await fetch(attempt);
      if (response.status !== 429 || retries === maxRetries) return response;
      const wait = retryAfterMs(response.headers.get('retry-after'));
      if (wait === undefined || wait > maxWaitMs) return response;
      // The 429's body is not needed; cancelling frees the connection (not awaited: some
      // implementations settle it only once the stream is drained).
      response.body?.cancel().catch(() => {});
      await sleep(wait, request.signal);
    }
  };
}
