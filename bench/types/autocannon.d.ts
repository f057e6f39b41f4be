/**
 * autocannon 9 ships no type declarations and @types/autocannon is not installed, so this
 * declares only the part of its programmatic API the harness uses.
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds a request may take before it counts as a timeout. */
      timeout?: number;
    }

    interface Result {
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      statusCodeStats: Record<string, { count: number }>;
    }

    /** The running load: emits `response(client, statusCode, bytes, latencyMs)` per answer. */
    interface Instance extends EventEmitter, PromiseLike<Result> {
      on(
        event: 'response',
        listener: (client: unknown, statusCode: number, bytes: number, latencyMs: number) => void,
      ): this;
      on(event: string | symbol, listener: (...args: never[]) => void): this;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
