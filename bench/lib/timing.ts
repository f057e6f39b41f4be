/** Sequential timings of single calls: min / median / p95 of N runs after a warm-up. */

export interface TimingStats {
  /** Timed calls (fewer than asked when the time budget ran out). */
  n: number;
  minMs: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  meanMs: number;
}

export interface TimingOptions {
  warmup: number;
  n: number;
  /** Stop timing after this long, once at least `minN` calls are in: keeps a slow case bounded. */
  budgetMs: number;
  minN?: number;
}

/** The nearest-rank percentile of sorted samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function summarize(samples: readonly number[]): TimingStats {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    minMs: sorted[0] ?? Number.NaN,
    medianMs: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
    meanMs: sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1),
  };
}

/** Calls `fn` `warmup` times untimed, then up to `n` times one after another, each timed alone. */
export async function timeCalls(fn: () => Promise<unknown> | unknown, options: TimingOptions): Promise<TimingStats> {
  for (let i = 0; i < options.warmup; i++) await fn();
  const samples: number[] = [];
  const deadline = performance.now() + options.budgetMs;
  const minN = options.minN ?? 5;
  for (let i = 0; i < options.n; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
    if (samples.length >= minN && performance.now() > deadline) break;
  }
  return summarize(samples);
}
