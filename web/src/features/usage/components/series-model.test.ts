import { describe, expect, it } from 'vitest';
import { NONE_KEY, OTHER_KEY, readSeriesOptions, type Series, stackSeries, withSeriesOptions } from './series-model';

const group = (key: string, runCount: number, costUsd: number | null) => ({
  key,
  label: key.toUpperCase(),
  runCount,
  inputTokens: 10 * runCount,
  outputTokens: runCount,
  costUsd,
});

describe('the series options in the URL', () => {
  it('reads defaults for missing or unknown values and leaves defaults out when writing', () => {
    expect(readSeriesOptions(new URLSearchParams('bucket=year&groupBy=model'))).toEqual({
      bucket: 'day',
      groupBy: 'model',
      measure: 'cost',
    });
    const params = withSeriesOptions(new URLSearchParams('from=2026-11-01&bucket=week'), {
      bucket: 'day',
      groupBy: 'role',
      measure: 'tokens',
    });
    expect(params.toString()).toBe('from=2026-11-01&groupBy=role&measure=tokens');
  });
});

describe('stackSeries', () => {
  it('stacks by group, largest first, an unknown cost counting nothing, empty buckets kept', () => {
    const series: Series = {
      buckets: [
        { start: '2026-11-01T00:00:00.000Z', groups: [group('a', 1, 0.5), group('b', 2, null)] },
        { start: '2026-11-02T00:00:00.000Z', groups: [] },
        { start: '2026-11-03T00:00:00.000Z', groups: [group('b', 1, 2)] },
      ],
    };
    const { bands, buckets } = stackSeries(series, 'cost');
    expect(bands.map((b) => [b.key, b.total])).toEqual([
      ['b', 2],
      ['a', 0.5],
    ]);
    expect(buckets.map((b) => b.values)).toEqual([
      [0, 0.5],
      [0, 0],
      [2, 0],
    ]);
    expect(stackSeries(series, 'runs').buckets.map((b) => b.total)).toEqual([3, 0, 1]);
  });

  it('puts the groups beyond the coloured ones together as Other', () => {
    const groups = Array.from({ length: 10 }, (_, i) => group(`g${i}`, i + 1, null));
    const { bands, buckets } = stackSeries({ buckets: [{ start: '2026-11-01T00:00:00.000Z', groups }] }, 'runs');
    expect(bands).toHaveLength(8);
    expect(bands.at(-1)).toEqual({ key: OTHER_KEY, label: 'Other (3 groups)', total: 1 + 2 + 3 });
    expect(buckets[0]!.total).toBe(55);
  });
});

describe('stackSeries by member', () => {
  it('gives the runs without a member (key null) a band of their own, with its label', () => {
    const series: Series = {
      buckets: [
        {
          start: '2026-11-01T00:00:00.000Z',
          groups: [group('ann', 1, 2), { ...group('x', 3, 5), key: null, label: 'Unattributed' }],
        },
        { start: '2026-11-02T00:00:00.000Z', groups: [{ ...group('x', 1, 1), key: null, label: 'Unattributed' }] },
      ],
    };
    const { bands, buckets } = stackSeries(series, 'cost');
    expect(bands).toEqual([
      { key: NONE_KEY, label: 'Unattributed', total: 6 },
      { key: 'ann', label: 'ANN', total: 2 },
    ]);
    expect(buckets.map((b) => b.values)).toEqual([
      [5, 2],
      [1, 0],
    ]);
  });
});
