import { describe, expect, it } from 'vitest';
import { fieldChanges } from './changes';

describe('fieldChanges', () => {
  it('lists changed fields first, then the unchanged ones', () => {
    expect(fieldChanges({ name: 'A', slug: 'a', count: 1 }, { name: 'B', slug: 'a', count: 2 })).toEqual([
      { field: 'name', before: 'A', after: 'B', changed: true },
      { field: 'count', before: '1', after: '2', changed: true },
      { field: 'slug', before: 'a', after: 'a', changed: false },
    ]);
  });

  it('shows every field of a new or removed target as changed', () => {
    expect(fieldChanges(null, { id: 't1', tags: ['x'] })).toEqual([
      { field: 'id', before: '', after: 't1', changed: true },
      { field: 'tags', before: '', after: '["x"]', changed: true },
    ]);
    expect(fieldChanges({ id: 't1' }, null)).toEqual([{ field: 'id', before: 't1', after: '', changed: true }]);
  });

  it('shows nested values as JSON and a field that appears as changed', () => {
    expect(fieldChanges({ limits: { a: 1 } }, { limits: { a: 2 }, extra: null })).toEqual([
      { field: 'limits', before: '{"a":1}', after: '{"a":2}', changed: true },
      { field: 'extra', before: '', after: 'null', changed: true },
    ]);
  });
});
