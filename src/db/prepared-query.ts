import type { Knex } from 'knex';
import { isPostgres } from './connect.js';
import { runKeptStatement } from './sqlite/knex-client.js';
import type { Executor } from './unit-of-work.js';

/** A value a prepared query binds: one per parameter, never a list (the SQL's shape is fixed). */
export type ParamValue = string | number | boolean | null;

/** What a prepared query is built from: knex's builder, given the database and named parameters. */
export type QueryBuild<Params> = (db: Executor, params: Params) => Knex.QueryBuilder | Knex.Raw;

/** A bound value of the compiled statement: a parameter of the call, or a constant of the build. */
type Slot = { param: string } | { value: unknown };

interface Compiled {
  sql: string;
  slots: Slot[];
}

/** Stands for a parameter while the query is built; callers' values are only ever bound, never compared with it. */
const MARK = '\u0000param:';

/**
 * A read built with knex once per engine and kept as its SQL, then run with each call's values.
 * Building and compiling a query is CPU on the event loop that grows with the query's joins and
 * subqueries, paid again on every call (for the member list, a join inside the row-set wrapper, a
 * tenth of the read's CPU in process).
 *
 * `build` is called once per engine with a marker in place of every parameter, so it must produce
 * the same SQL whatever the values: no branching on them, no list of them (`whereIn`), no value
 * spliced into SQL text. A marker that does not come back as a whole bound value fails the first
 * call, instead of running a query that would ignore the caller's value.
 */
export function preparedQuery<Params extends Record<string, ParamValue>, Row>(
  build: QueryBuild<Params>,
): (db: Executor, params: Params) => Promise<Row[]> {
  const byEngine = new Map<boolean, Compiled>();
  return async (db, params) => {
    const postgres = isPostgres(db);
    let compiled = byEngine.get(postgres);
    if (!compiled) {
      compiled = compile(db, build);
      byEngine.set(postgres, compiled);
    }
    const bindings = compiled.slots.map((slot) => ('param' in slot ? paramValue(params, slot.param) : slot.value));
    const result = await runKeptStatement(db, compiled.sql, bindings);
    // The driver's result: pg's carries the rows, sqlite3's is them.
    return (postgres ? (result as { rows: Row[] }).rows : result) as Row[];
  };
}

/**
 * preparedQuery for a read whose SQL depends on which of its optional parameters are given, never on
 * their values (a filter is there or not): one kept statement per set of given parameters, its
 * build handed only those (an absent one is `undefined`, as the caller's is).
 */
export function preparedPerPresence<Params extends { [Name in keyof Params]: ParamValue | undefined }, Row>(
  build: QueryBuild<Params>,
): (db: Executor, params: Params) => Promise<Row[]> {
  const byPresence = new Map<string, (db: Executor, params: Params) => Promise<Row[]>>();
  return (db, params) => {
    const values = params as Record<string, ParamValue | undefined>;
    const given = Object.keys(values)
      .filter((name) => values[name] !== undefined)
      .sort();
    const key = given.join('\u0000');
    let run = byPresence.get(key);
    if (!run) {
      run = preparedQuery<Record<string, ParamValue>, Row>((executor, markers) =>
        build(executor, Object.fromEntries(given.map((name) => [name, markers[name]])) as Params),
      ) as (db: Executor, params: Params) => Promise<Row[]>;
      byPresence.set(key, run);
    }
    return run(db, params);
  };
}

function compile<Params>(db: Executor, build: QueryBuild<Params>): Compiled {
  const markers = new Proxy({} as Record<string, string>, {
    get: (_target, key) => (typeof key === 'string' ? `${MARK}${key}` : undefined),
  }) as unknown as Params;
  const { sql, bindings } = build(db, markers).toSQL();
  if (sql.includes(MARK)) throw new Error(`prepared query: a parameter was written into the SQL text: ${sql}`);
  const slots = bindings.map((binding): Slot => {
    if (typeof binding !== 'string' || !binding.includes(MARK)) return { value: binding };
    if (!binding.startsWith(MARK)) throw new Error(`prepared query: a parameter was bound as part of "${binding}"`);
    return { param: binding.slice(MARK.length) };
  });
  return { sql, slots };
}

function paramValue(params: Record<string, ParamValue>, name: string): ParamValue {
  const value = params[name];
  if (value === undefined) throw new Error(`prepared query: no value for the parameter "${name}"`);
  return value;
}
