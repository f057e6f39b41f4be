import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byCodeUnits, byName, foldedFirst } from '../../src/shared/order.js';
import { listOrder } from '../../src/shared/pagination.js';

// A list's `sorted` folds each key once; it must put items exactly where comparing their keys
// with the order's own comparators (what a cursor's page start uses) puts them.
interface Item {
  name: string;
  rank: number;
  id: string;
}
const order = listOrder(
  (item: Item) => [item.name, item.rank, item.id],
  byName,
  (a, b) => a - b,
  byCodeUnits,
);
const byKeys = (a: Item, b: Item) => order.compare(order.keyOf(a), order.keyOf(b));

// Names that differ only by case, by accents, by letters whose lower case is longer (İ), and
// by characters outside the BMP, where code units and code points disagree.
const name = fc.constantFrom(
  'alice',
  'Alice',
  'ALICE',
  'Émile',
  'émile',
  'İstanbul',
  'istanbul',
  'ß',
  'SS',
  '𝔘',
  '\uFFFD',
  'bob',
  '',
);
const item = fc.record({ name, rank: fc.integer({ min: -3, max: 3 }), id: fc.string({ maxLength: 3 }) });

describe('listOrder.sorted', () => {
  it('orders items as comparing their keys does', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), (items) => {
        expect(order.sorted([...items])).toEqual([...items].sort(byKeys));
      }),
    );
  });

  it('keeps a list already in order, and sorts one with a single item out of place late in it', () => {
    fc.assert(
      fc.property(fc.array(item, { minLength: 2, maxLength: 60 }), fc.nat(), (items, at) => {
        const inOrder = [...items].sort(byKeys);
        expect(order.sorted([...inOrder])).toEqual(inOrder);
        const i = at % (inOrder.length - 1);
        const swapped = [...inOrder];
        [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
        expect(order.sorted(swapped)).toEqual(inOrder);
      }),
    );
  });

  it('sorts the array it is given and returns it', () => {
    const items: Item[] = [
      { name: 'b', rank: 0, id: '1' },
      { name: 'A', rank: 0, id: '2' },
      { name: 'a', rank: 0, id: '3' },
    ];
    const result = order.sorted(items);
    expect(result).toBe(items);
    expect(items.map((i) => i.id)).toEqual(['2', '3', '1']);
  });
});

describe('foldedFirst', () => {
  it('compares the folded forms first, then the strings exactly', () => {
    expect(byName('alice', 'Bob')).toBeLessThan(0);
    expect(byName('Alice', 'alice')).toBeLessThan(0);
    expect(byName('alice', 'alice')).toBe(0);
    const byLength = foldedFirst((text) => 'x'.repeat(text.length));
    expect(byLength('zz', 'a')).toBeGreaterThan(0);
    expect(byLength('b', 'a')).toBeGreaterThan(0);
    expect(byLength.fold('abc')).toBe('xxx');
  });
});
