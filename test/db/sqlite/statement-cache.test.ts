import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite, type Database, type Db } from '../../../src/db/connect.js';

// The prepared-statement cache of SQLite connections (src/db/sqlite/statement-cache.ts): the same
// answers, errors and visibility of other connections' writes as the driver's uncached calls.
let dir: string;
let database: Database;
let db: Db;
let other: Database;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-statements-'));
  database = openSqlite(path.join(dir, 'hub.sqlite'));
  db = database.writer;
  other = openSqlite(path.join(dir, 'hub.sqlite'));
  await db.schema.createTable('items', (t) => {
    t.increments('id');
    t.string('name').notNullable();
  });
});
afterAll(async () => {
  await database.destroy();
  await other.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('SQLite prepared-statement cache', () => {
  it('answers a repeated statement with each call’s own bindings', async () => {
    const [first] = await db('items').insert({ name: 'a' });
    const [second] = await db('items').insert({ name: 'b' });
    expect(second).toBe(first! + 1);
    for (const [id, name] of [
      [first, 'a'],
      [second, 'b'],
      [first, 'a'],
    ] as const)
      expect(await db('items').where({ id }).first('name')).toEqual({ name });
    expect(await db('items').where({ name: 'b' }).update({ name: 'c' })).toBe(1);
    expect(await db('items').where({ name: 'nobody' }).update({ name: 'd' })).toBe(0);
  });

  it('reports a statement that does not prepare with SQLite’s own message, and carries on', async () => {
    await expect(db.raw('select * from no_such_table')).rejects.toThrow(/no such table: no_such_table/);
    await expect(db.raw('select * from no_such_table')).rejects.toThrow(/no such table: no_such_table/);
    expect(await db('items').count({ n: '*' })).toEqual([{ n: 2 }]);
  });

  it('sees what another connection committed since the statement last ran', async () => {
    const names = async () => (await db('items').orderBy('id').select('name')).map((r) => r.name);
    expect(await names()).toEqual(['a', 'c']);
    await other.writer('items').insert({ name: 'e' });
    expect(await names()).toEqual(['a', 'c', 'e']);
  });

  it('follows a schema change', async () => {
    expect(Object.keys((await db.raw('select * from items limit 1'))[0])).toEqual(['id', 'name']);
    await db.schema.alterTable('items', (t) => t.string('note'));
    expect(Object.keys((await db.raw('select * from items limit 1'))[0])).toEqual(['id', 'name', 'note']);
  });

  it('leaves nothing reading after an EXPLAIN: the index it used can be dropped', async () => {
    await db.raw('create index items_name_idx on items (name)');
    const plan = await db.raw('explain query plan select id from items where name = ?', ['a']);
    expect(JSON.stringify(plan)).toContain('items_name_idx');
    await db.raw('drop index items_name_idx');
    expect(await db('items').where({ name: 'a' }).first('name')).toEqual({ name: 'a' });
  });

  it('keeps working inside a transaction and after a rollback', async () => {
    await expect(
      db.transaction(async (trx) => {
        await trx('items').insert({ name: 'rolled back' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await db('items').where({ name: 'rolled back' }).first()).toBeUndefined();
  });
});

// What the cache leans on: the day sqlite3 or knex changes one of these, this fails instead of the
// cache being silently bypassed (or answering in a shape knex no longer reads).
describe('the internals the statement cache leans on', () => {
  it("knex's sqlite3 client runs every statement through the connection's all or run, reading `this` after", () => {
    const source = fs.readFileSync(
      createRequire(import.meta.url).resolve('knex/lib/dialects/sqlite3/index.js'),
      'utf8',
    );
    expect(source).toContain('connection[callMethod](obj.sql, obj.bindings, function (err, response) {');
    expect(source).toContain('obj.context = this;');
    expect(source.match(/callMethod = (?:obj\.returning \? )?'(?:all|run)'/g)?.length).toBe(3);
  });

  it("sqlite3's connection and statement have the methods the cache wraps and calls", () => {
    for (const method of ['all', 'run', 'prepare', 'close'] as const)
      expect(typeof sqlite3.Database.prototype[method]).toBe('function');
    for (const method of ['all', 'run', 'finalize'] as const)
      expect(typeof sqlite3.Statement.prototype[method]).toBe('function');
  });

  it("is installed on every pooled connection: its all and run are not the driver's own", async () => {
    const client = db.client as {
      acquireConnection(): Promise<sqlite3.Database>;
      releaseConnection(c: unknown): unknown;
    };
    const connection = await client.acquireConnection();
    try {
      expect(connection).toBeInstanceOf(sqlite3.Database);
      expect(connection.all).not.toBe(sqlite3.Database.prototype.all);
      expect(connection.run).not.toBe(sqlite3.Database.prototype.run);
    } finally {
      await client.releaseConnection(connection);
    }
  });

  it('hands knex the statement as `this`, with the lastID and changes it reads', async () => {
    const [id] = await db('items').insert({ name: 'context' });
    expect(id).toEqual((await db('items').where({ name: 'context' }).first('id')).id);
    expect(await db('items').where({ name: 'context' }).delete()).toBe(1);
  });
});
