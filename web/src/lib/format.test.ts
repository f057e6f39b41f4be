import { describe, expect, it } from 'vitest';
import { exactUsd, formatDate, formatDateTime, formatUsd } from './format';

describe('dates', () => {
  it('are UTC days and times, and say so', () => {
    expect(formatDate('2026-11-28T23:59:59Z')).toBe('28 Nov 2026');
    expect(formatDateTime('2026-11-28T14:05:09.123Z')).toBe('28 Nov 2026, 14:05 UTC');
    // A time zone in the input changes nothing of the rule: it is shown in UTC.
    expect(formatDateTime('2026-11-29T01:30:00+02:00')).toBe('28 Nov 2026, 23:30 UTC');
  });
});

describe('money', () => {
  it('has two decimals and never shows a cost as free', () => {
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.004)).toBe('< $0.01');
    expect(formatUsd(0.005)).toBe('$0.01');
    expect(formatUsd(12.3456)).toBe('$12.35');
    expect(exactUsd(0.000412)).toBe('$0.000412');
  });
});
