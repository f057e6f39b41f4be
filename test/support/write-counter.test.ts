// The write counter's own checks: the matrix's "a denied call changes nothing" is only as strong
// as the counter's ability to see a write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './database.js';
import { installWriteCounter, type WriteCounter } from './write-counter.js';

let database: TestDatabase;
let counter: WriteCounter;

beforeAll(async () => {
  database = await createTestDatabase({ migrated: true });
  counter = await installWriteCounter(database.db, {
    request_rate_windows: '*',
    organizations: ['status'],
  });
});
afterAll(() => database.drop());

const orgRow = { id: 'org-counted', slug: 'counted', name: 'Counted', created_at: '2026-01-01T00:00:00.000Z' };

describe('the write counter', () => {
  it('names each table an insert, an update or a delete wrote, with its rows', async () => {
    let before = await counter.counts();
    await database.db('organizations').insert(orgRow);
    expect(await counter.writtenSince(before)).toEqual(['organizations (1 rows)']);

    before = await counter.counts();
    await database.db('organizations').where({ id: orgRow.id }).update({ name: 'Renamed' });
    expect(await counter.writtenSince(before)).toEqual(['organizations (1 rows)']);

    before = await counter.counts();
    await database.db('organizations').where({ id: orgRow.id }).delete();
    expect(await counter.writtenSince(before)).toEqual(['organizations (1 rows)']);
  });

  it('answers [] when nothing was written, and for a statement that matched no row', async () => {
    const before = await counter.counts();
    await database.db('organizations').where({ id: 'no-such-org' }).update({ name: 'x' });
    expect(await counter.writtenSince(before)).toEqual([]);
  });

  it('leaves out bookkeeping: a whole table, or an update that sets only its skipped columns', async () => {
    await database.db('organizations').insert({ ...orgRow, id: 'org-kept', slug: 'kept' });
    let before = await counter.counts();
    await database
      .db('request_rate_windows')
      .insert({ organization_id: 'org-kept', window_started_ms: 0, request_count: 1 });
    await database.db('organizations').where({ id: 'org-kept' }).update({ status: 'SUSPENDED' });
    expect(await counter.writtenSince(before)).toEqual([]);

    before = await counter.counts();
    await database.db('organizations').where({ id: 'org-kept' }).update({ status: 'ACTIVE', name: 'Kept' });
    expect(await counter.writtenSince(before)).toEqual(['organizations (1 rows)']);
  });
});
