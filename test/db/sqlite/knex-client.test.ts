// What runKeptStatement (src/db/sqlite/knex-client.ts) leans on in knex's client: the methods knex
// itself runs a built query with, their arity, and what `query` gives back, on the engine under
// test. The day knex changes one of them, this fails before the kept reads do.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKeptStatement } from '../../../src/db/sqlite/knex-client.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('the knex client internals runKeptStatement leans on', () => {
  it('are methods of the client with the arity it calls them with', () => {
    const client = database.db.client as unknown as Record<string, unknown>;
    for (const [method, arity] of [
      ['acquireConnection', 0],
      ['releaseConnection', 1],
      ['query', 2],
    ] as const) {
      expect(typeof client[method]).toBe('function');
      expect((client[method] as (...args: unknown[]) => unknown).length).toBe(arity);
    }
  });

  it("is what knex's own runner runs a query with", () => {
    const source = fs.readFileSync(createRequire(import.meta.url).resolve('knex/lib/execution/runner.js'), 'utf8');
    expect(source).toContain('this.client.query(this.connection, obj)');
  });

  it("answers with the driver's rows, binding values in place of `?`, on either engine", async () => {
    const result = await runKeptStatement(database.readers, 'select ? as a, ? as b', [1, "it's"]);
    const rows = database.engine === 'postgres' ? (result as { rows: unknown[] }).rows : result;
    expect(rows).toEqual([{ a: database.engine === 'postgres' ? '1' : 1, b: "it's" }]);
  });
});
