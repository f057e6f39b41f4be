import { describe, expect, it } from 'vitest';
import { projection } from '../../src/shared/projection.js';

// A part ordered by rank: an enumeration whose values are ordered by meaning (grant roles,
// strongest first), which neither spelling nor SQL's order keeps.
interface Row {
  level: string;
  name: string;
}
const ranked = projection<Row, { level: string; name: string }>()({
  fields: { level: 'level', name: 'name' },
  order: [
    { column: 'level', by: { rankDescending: ['READ', 'EDIT', 'MANAGE'] } },
    { column: 'name', by: 'codeUnits' },
  ],
});

describe('a projection ordered by rank', () => {
  const rows: Row[] = [
    { level: 'READ', name: 'a' },
    { level: 'MANAGE', name: 'b' },
    { level: 'EDIT', name: 'c' },
    { level: 'MANAGE', name: 'a' },
  ];

  it('puts the last rank first, then the next parts', () => {
    expect(ranked.pageOf(rows, {}).items).toEqual([
      { level: 'MANAGE', name: 'a' },
      { level: 'MANAGE', name: 'b' },
      { level: 'EDIT', name: 'c' },
      { level: 'READ', name: 'a' },
    ]);
  });

  it('pages by a cursor across ranks', () => {
    const first = ranked.pageOf(rows, { limit: 2 });
    const rest = ranked.pageOf(rows, { limit: 2, cursor: first.nextCursor! });
    expect(rest).toEqual({
      items: [
        { level: 'EDIT', name: 'c' },
        { level: 'READ', name: 'a' },
      ],
      nextCursor: null,
    });
  });

  it('has no SQL order, which would sort the values by spelling', () => {
    expect(() => ranked.sqlOrder).toThrow(/ranked/);
  });
});
