import type { Schema } from '../api/types.js';

export type BucketSpan = Schema<'UsageSeriesBucketSpan'>;

const DAY_MS = 86_400_000;

/** The UTC calendar start of the bucket holding `at`: its day, its week's Monday, its month's first. */
export function bucketStart(at: Date, span: BucketSpan): Date {
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  if (span === 'day') return new Date(day);
  if (span === 'month') return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  // getUTCDay: Sunday 0 … Saturday 6; days back to Monday.
  return new Date(day - ((at.getUTCDay() + 6) % 7) * DAY_MS);
}

/** The start of the bucket after the one starting at `start`. */
function nextStart(start: Date, span: BucketSpan): Date {
  if (span === 'month') return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  return new Date(start.getTime() + (span === 'week' ? 7 : 1) * DAY_MS);
}

/**
 * The starts of the buckets meeting [from, to), oldest first, or undefined as soon as there would
 * be more than `limit` (so a window of centuries is refused without listing them). An empty
 * window meets no bucket.
 */
export function bucketStarts(from: Date, to: Date, span: BucketSpan, limit: number): Date[] | undefined {
  const starts: Date[] = [];
  if (from >= to) return starts;
  for (let start = bucketStart(from, span); start < to; start = nextStart(start, span)) {
    if (starts.length === limit) return undefined;
    starts.push(start);
  }
  return starts;
}

/** The day of a bucket start, `YYYY-MM-DD`, as the series' statement names its buckets. */
export const bucketDay = (start: Date): string => start.toISOString().slice(0, 10);
