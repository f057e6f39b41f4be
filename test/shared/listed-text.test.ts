import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInListOrder } from '../../src/shared/listed-text.js';

// A list the database wrote by name: lower() folding A–Z alone (SQLite's; PostgreSQL's folds more,
// but only characters the check refuses), then the name, then the id, each by code points.
interface Item {
  name: string;
  id: string;
}
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
const byCodePoints = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const databaseOrder = (a: Item, b: Item) =>
  byCodePoints(asciiLower(a.name), asciiLower(b.name)) || byCodePoints(a.name, b.name) || byCodePoints(a.id, b.id);

// The list's order in code, written out apart from the app's comparators: toLowerCase, then the
// name, then the id, each by UTF-16 code units.
const byUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const listOrder = (a: Item, b: Item) =>
  byUnits(a.name.toLowerCase(), b.name.toLowerCase()) || byUnits(a.name, b.name) || byUnits(a.id, b.id);

const textOf = (items: Item[]) => Buffer.from(JSON.stringify(items));

describe('isInListOrder', () => {
  it('takes ASCII, and characters beyond it that lower-casing leaves alone', () => {
    for (const name of ['Alpha beta', 'García', 'émile', 'Müller ß ς', 'ı', 'ａ', '\uE000', '\uFFFD'])
      expect(isInListOrder(textOf([{ name, id: '1' }])), name).toBe(true);
  });

  it('refuses a character beyond A–Z that lower-casing changes, or one beyond the BMP', () => {
    for (const name of ['Émile', 'MÜLLER', 'İstanbul', '\u212A', 'Σ', 'ǅ', 'Ⓐ', 'Ａ', 'Ⅻ', '𝔘', '😀'])
      expect(isInListOrder(textOf([{ name, id: '1' }])), name).toBe(false);
  });

  // Letters both ways round, letters whose case differs beyond ASCII, ones whose lower case is
  // longer or ASCII (İ, the Kelvin sign), characters on either side of the surrogates, and ones
  // outside the BMP, where code units and code points disagree.
  const unit = fc.constantFrom('a', 'B', 'z', 'Z', '_', '~', '0', 'é', 'É', 'ß', 'İ', 'ı', '\u212A', 'ς', 'Σ');
  const rarer = fc.constantFrom('ǅ', 'ⓐ', 'Ⓐ', '\uD7FF', '\uE000', '\uFFFD', '😀', '𝔘');
  const item = fc.record({
    name: fc.string({ unit: fc.oneof({ arbitrary: unit, weight: 6 }, { arbitrary: rarer, weight: 1 }), maxLength: 4 }),
    id: fc.constantFrom('1', '2', '3'),
  });

  it('holds only when the database order is the list order', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(item, { maxLength: 8 }), (items) => {
        const written = [...items].sort(databaseOrder);
        if (!isInListOrder(textOf(written))) return;
        accepted++;
        expect([...written].sort(listOrder)).toEqual(written);
      }),
      { numRuns: 2000 },
    );
    // Not vacuous: a good share of the lists, beyond ASCII ones, were taken as they came.
    expect(accepted).toBeGreaterThan(200);
  });
});
