import { describe, expect, it } from 'vitest';
import { fieldChanges } from './changes';

describe('fieldChanges', () => {
  it('lists only what changed, by path', () => {
    expect(
      fieldChanges(
        { name: 'A', slug: 'a', owner: { name: 'X', id: 1 } },
        { name: 'B', slug: 'a', owner: { name: 'Y', id: 1 } },
      ),
    ).toEqual([
      { path: ['name'], before: 'A', after: 'B' },
      { path: ['owner', 'name'], before: 'X', after: 'Y' },
    ]);
    expect(fieldChanges({ role: 'MEMBER' }, { role: 'MEMBER' })).toEqual([]);
  });

  it('matches the rows of nested arrays by the field that names them', () => {
    const row = (dimension: string, organizationLimit: number | null, effective: number) => ({
      dimension,
      platformCeiling: 1000,
      organizationLimit,
      effective,
    });
    const before = { dimensions: [row('memberCount', null, 1000), row('teamCount', 10, 10)] };
    // The same rows in another order, one of them changed.
    const after = { dimensions: [row('teamCount', 10, 10), row('memberCount', 5, 5)] };
    expect(fieldChanges(before, after)).toEqual([
      { path: ['dimensions', 'memberCount', 'organizationLimit'], before: 'not set', after: '5' },
      { path: ['dimensions', 'memberCount', 'effective'], before: '1000', after: '5' },
    ]);
  });

  it('shows a row that came or went whole, and lists of names as lists', () => {
    expect(
      fieldChanges(
        { rows: [{ id: 'a', n: 1 }] },
        {
          rows: [
            { id: 'a', n: 1 },
            { id: 'b', n: 2 },
          ],
        },
      ),
    ).toEqual([{ path: ['rows', 'b'], before: 'not set', after: '{"id":"b","n":2}' }]);
    expect(fieldChanges({ skillNames: ['a'] }, { skillNames: ['a', 'b'] })).toEqual([
      { path: ['skillNames'], before: 'a', after: 'a, b' },
    ]);
  });

  it('shows redacted values as redacted, never their placeholder', () => {
    expect(
      fieldChanges({ headers: '[redacted]', url: 'https://a' }, { headers: '[redacted]', url: 'https://b' }),
    ).toEqual([{ path: ['url'], before: 'https://a', after: 'https://b' }]);
    expect(fieldChanges(null, { name: 'T', secret: '[redacted]' })).toEqual([
      { path: ['name'], before: 'not set', after: 'T' },
      { path: ['secret'], before: 'not set', after: 'redacted' },
    ]);
  });

  it('lists every field of a removed target as unset', () => {
    expect(fieldChanges({ id: 't1', tags: [] }, null)).toEqual([
      { path: ['id'], before: 't1', after: 'not set' },
      { path: ['tags'], before: 'none', after: 'not set' },
    ]);
  });
});
