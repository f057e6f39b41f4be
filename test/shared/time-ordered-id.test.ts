import { describe, expect, it } from 'vitest';
import { timeOrderedId } from '../../src/shared/time-ordered-id.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedId', () => {
  it('is a version 7 UUID carrying the time', () => {
    const id = timeOrderedId(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
    expect(id).toMatch(UUID_V7);
    expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
  });

  it('sorts in the order made, within a millisecond and when the clock steps back', () => {
    const now = Date.UTC(2030, 0, 1);
    const ids = [
      ...Array.from({ length: 5000 }, () => timeOrderedId(now)),
      timeOrderedId(now - 1000),
      timeOrderedId(now + 10_000),
    ];
    expect(ids.every((id) => UUID_V7.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
