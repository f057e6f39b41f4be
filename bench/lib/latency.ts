/**
 * Latency percentiles at 10 µs resolution. autocannon's own histogram rounds to whole
 * milliseconds, which reads 0 or 1 ms for every server here; counting into fixed buckets keeps
 * sub-millisecond differences visible with memory bounded however long the run is.
 */
const RESOLUTION_MS = 0.01;
/** Answers slower than this all count as this slow: the percentiles we print are far below it. */
const CEILING_MS = 2_000;

export class LatencyHistogram {
  private readonly buckets = new Uint32Array(Math.ceil(CEILING_MS / RESOLUTION_MS) + 1);
  private total = 0;

  record(ms: number): void {
    const index = Math.min(Math.round(ms / RESOLUTION_MS), this.buckets.length - 1);
    this.buckets[index]! += 1;
    this.total += 1;
  }

  get count(): number {
    return this.total;
  }

  /** The smallest latency at or below which `p` percent of the answers fell, in ms (NaN when empty). */
  percentile(p: number): number {
    if (this.total === 0) return Number.NaN;
    const rank = Math.ceil((p / 100) * this.total);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i]!;
      if (seen >= rank) return i * RESOLUTION_MS;
    }
    return CEILING_MS;
  }
}
