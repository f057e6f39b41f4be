import { describe, expect, it } from 'vitest';
import { bestInputUnit, formatBytes, formatCount, formatDuration, formatQuantity, toBaseUnit } from './units';

describe('formatBytes', () => {
  it('uses the largest binary unit that keeps the number at least 1', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1024)).toBe('1 KiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(65_536)).toBe('64 KiB');
    expect(formatBytes(8 * 1024 ** 2)).toBe('8 MiB');
    expect(formatBytes(10 * 1024 ** 3)).toBe('10 GiB');
    expect(formatBytes(2 * 1024 ** 4)).toBe('2 TiB');
  });

  it('rounds to two decimals', () => {
    expect(formatBytes(1_000_000)).toBe('976.56 KiB');
    expect(formatBytes(1024 ** 2 + 1)).toBe('1 MiB');
  });
});

describe('formatDuration', () => {
  it('reads seconds as days, hours, minutes and seconds, leaving out zero parts', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(300)).toBe('5 min');
    expect(formatDuration(600)).toBe('10 min');
    expect(formatDuration(3600)).toBe('1 h');
    expect(formatDuration(3660)).toBe('1 h 1 min');
    expect(formatDuration(90_061)).toBe('1 d 1 h 1 min 1 s');
  });

  it('keeps fractions of a second', () => {
    expect(formatDuration(0.5)).toBe('0.5 s');
    expect(formatDuration(90.5)).toBe('1 min 30.5 s');
  });
});

describe('formatQuantity', () => {
  it('shows each quantity in its unit', () => {
    expect(formatCount(1_000_000)).toBe('1,000,000');
    expect(formatQuantity(600, 'perMinute')).toBe('600 / min');
    expect(formatQuantity(2000, 'millicores')).toBe('2,000 millicores');
    expect(formatQuantity(10_000, 'count')).toBe('10,000');
    expect(formatQuantity(5 * 1024 ** 2, 'bytes')).toBe('5 MiB');
    expect(formatQuantity(300, 'seconds')).toBe('5 min');
  });
});

describe('typing a value in a unit', () => {
  it('prefills the largest unit in which the value is whole', () => {
    expect(bestInputUnit(8 * 1024 ** 2, 'bytes')).toEqual({ amount: 8, unit: 'MiB' });
    expect(bestInputUnit(1536, 'bytes')).toEqual({ amount: 1.5 * 1024, unit: 'B' });
    expect(bestInputUnit(3600, 'seconds')).toEqual({ amount: 1, unit: 'h' });
    expect(bestInputUnit(90, 'seconds')).toEqual({ amount: 90, unit: 's' });
    expect(bestInputUnit(0, 'bytes')).toEqual({ amount: 0, unit: 'B' });
    expect(bestInputUnit(2.5, 'count')).toEqual({ amount: 2.5, unit: '' });
  });

  it('converts back to the base unit the server takes', () => {
    expect(toBaseUnit(1.5, 'KiB', 'bytes')).toBe(1536);
    expect(toBaseUnit(6, 'MiB', 'bytes')).toBe(6 * 1024 ** 2);
    expect(toBaseUnit(1.1, 'MiB', 'bytes')).toBe(1_153_434);
    expect(toBaseUnit(5, 'min', 'seconds')).toBe(300);
    expect(toBaseUnit(2.5, '', 'count')).toBe(2.5);
    expect(() => toBaseUnit(1, 'GiB', 'seconds')).toThrow('GiB is no unit of seconds');
  });
});
