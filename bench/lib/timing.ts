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

/**
 * What a timed call may resolve to when it was timed where it ran: a request sent by the HTTP
 * client process (bench/lib/http-client.ts) is timed there, so the time counted is the request's,
 * without the IPC round trip to that process. A call that resolves to anything else is timed here.
 */
export interface SelfTimed {
  clientElapsedMs: number;
}

/** The time a call took: its own figure when it brought one, else the time since `started`. */
function elapsedMs(result: unknown, started: number): number {
  const own = (result as Partial<SelfTimed> | null | undefined)?.clientElapsedMs;
  return typeof own === 'number' ? own : performance.now() - started;
}

/** Calls `fn` `warmup` times untimed, then up to `n` times one after another, each timed alone. */
export async function timeCalls(fn: () => Promise<unknown> | unknown, options: TimingOptions): Promise<TimingStats> {
  for (let i = 0; i < options.warmup; i++) await fn();
  const samples: number[] = [];
  const deadline = performance.now() + options.budgetMs;
  const minN = options.minN ?? 5;
  for (let i = 0; i < options.n; i++) {
    const started = performance.now();
    samples.push(elapsedMs(await fn(), started));
    if (samples.length >= minN && performance.now() > deadline) break;
  }
  return summarize(samples);
}

/** TimingStats plus the median CPU time of this process per call (user + system, all threads). */
export interface CpuTimingStats extends TimingStats {
  /** In-process work only: on SQLite that is the query too; on PostgreSQL the server's share is missing. */
  cpuMedianMs: number;
}

/**
 * Times several calls against each other: each round calls every function once, one after
 * another, starting with a different one each round, so load that drifts on a shared machine
 * falls on all of them alike and their ratios stay meaningful. `warmup` untimed rounds first;
 * then up to `n` rounds, stopping early once `minN` are in and `budgetMs` has passed.
 */
export async function timeInterleaved<K extends string>(
  fns: Record<K, () => Promise<unknown> | unknown>,
  options: TimingOptions,
): Promise<Record<K, CpuTimingStats>> {
  const keys = Object.keys(fns) as K[];
  for (let i = 0; i < options.warmup; i++) for (const k of keys) await fns[k]();
  const wall = new Map<K, number[]>(keys.map((k) => [k, []]));
  const cpu = new Map<K, number[]>(keys.map((k) => [k, []]));
  const deadline = performance.now() + options.budgetMs;
  const minN = options.minN ?? 5;
  for (let round = 0; round < options.n; round++) {
    for (let j = 0; j < keys.length; j++) {
      const k = keys[(round + j) % keys.length]!;
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      wall.get(k)!.push(elapsedMs(await fns[k](), started));
      const used = process.cpuUsage(cpuBefore);
      cpu.get(k)!.push((used.user + used.system) / 1000);
    }
    if (round + 1 >= minN && performance.now() > deadline) break;
  }
  return Object.fromEntries(
    keys.map((k) => [k, { ...summarize(wall.get(k)!), cpuMedianMs: summarize(cpu.get(k)!).medianMs }]),
  ) as Record<K, CpuTimingStats>;
}

/** One step of a round: `before` runs (and is awaited) untimed, `timed` is measured. */
export interface Step {
  label: string;
  before?: () => unknown;
  timed: () => Promise<unknown>;
}

/**
 * Every step once per round, the starting step rotating so no step always runs first on a warm
 * cache; `warmup` untimed rounds first.
 */
export async function timeRounds(
  steps: readonly Step[],
  warmup: number,
  rounds: number,
): Promise<Map<string, TimingStats>> {
  const samples = new Map<string, number[]>(steps.map((s) => [s.label, []]));
  for (let round = 0; round < warmup + rounds; round++) {
    for (let j = 0; j < steps.length; j++) {
      const step = steps[(round + j) % steps.length]!;
      await step.before?.();
      const started = performance.now();
      const took = elapsedMs(await step.timed(), started);
      if (round >= warmup) samples.get(step.label)!.push(took);
    }
  }
  return new Map([...samples].map(([label, s]) => [label, summarize(s)]));
}
