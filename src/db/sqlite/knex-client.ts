import type { Executor } from '../unit-of-work.js';

/**
 * A bend of knex (docs/architecture.md, "Where we bend Express, knex and sqlite3"): a kept statement runs through
 * the part of knex's client that knex itself runs a built query with, on either engine.
 * test/db/sqlite/knex-client.test.ts fails when that part changes shape.
 */
interface StatementClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
  query(
    connection: unknown,
    statement: { sql: string; bindings: unknown[]; method: 'raw' },
  ): Promise<{ response: unknown }>;
}

/**
 * Runs kept SQL on a connection of the executor's client: the database's readers (or PostgreSQL's
 * pool) when the caller reads through them (`UnitOfWork.reader`), a transaction's own connection
 * in a transaction. `db.raw` would rewrite the whole SQL text on every call to find its `?`, and
 * hand the statement cache a new string to hash: the long statements (the explorer's) cost
 * measurably more CPU that way (bench/README.md). The client's `query` still emits the `query`
 * event, numbers PostgreSQL's parameters and names the SQL in an error. Returns the driver's
 * result: pg's carries the rows, sqlite3's is them.
 */
export async function runKeptStatement(db: Executor, sql: string, bindings: unknown[]): Promise<unknown> {
  const client = db.client as unknown as StatementClient;
  const connection = await client.acquireConnection();
  try {
    return (await client.query(connection, { sql, bindings, method: 'raw' })).response;
  } finally {
    await client.releaseConnection(connection);
  }
}
