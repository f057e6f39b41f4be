import { describe, expect, it } from 'vitest';
import { keyBetween } from './sort-key';

const pad = (n: number) => String(n).padStart(10, '0');

describe('keyBetween', () => {
  it('takes the midpoint of two server keys', () => {
    expect(keyBetween(pad(1000), pad(2000))).toBe(pad(1500));
    expect(keyBetween(null, pad(1000))).toBe(pad(500));
    expect(keyBetween(pad(1000), null)).toBe(pad(Math.floor((1000 + 1e10) / 2)));
  });

  it('falls back to a string between when the numbers are adjacent or not numbers', () => {
    for (const [a, b] of [
      [pad(1), pad(2)],
      ['a', 'b'],
      ['abc', 'abd'],
      [null, 'a'],
      ['zz', null],
      [pad(1000), 'x'],
      ['a', 'a0'],
    ] as const) {
      const k = keyBetween(a, b);
      expect(k, `${a} .. ${b}`).not.toBeNull();
      if (a !== null) expect(k! > a, `${k} > ${a}`).toBe(true);
      if (b !== null) expect(k! < b, `${k} < ${b}`).toBe(true);
    }
  });

  it('gives up (so the caller renumbers) when the neighbours are equal or out of order', () => {
    expect(keyBetween(pad(1000), pad(1000))).toBeNull();
    expect(keyBetween('b', 'a')).toBeNull();
  });

  it('keeps slotting between neighbours many times in a row', () => {
    let lo: string | null = pad(1000);
    const hi = pad(2000);
    for (let i = 0; i < 60; i += 1) {
      const k = keyBetween(lo, hi);
      expect(k).not.toBeNull();
      expect(k! > lo! && k! < hi).toBe(true);
      lo = k;
    }
  });
});
