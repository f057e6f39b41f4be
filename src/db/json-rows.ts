import type { Knex } from 'knex';
import { isPostgres } from './connect.js';
import { preparedQuery, type ParamValue } from './prepared-query.js';
import type { JsonShape, Projection } from '../shared/projection.js';
import type { Executor } from './unit-of-work.js';

/** A read whose rows are wanted whole: the query, and the names of the columns it selects. */
export interface RowSet {
  query: Knex.QueryBuilder;
  columns: readonly string[];
  /**
   * Makes one row from its values, in `columns` order, instead of the object keyed by the column
   * names: for a long list that its store would otherwise copy into the shape it answers, one more
   * object per row (the explorer's 20,000 projects).
   */
  row?: (values: unknown[]) => unknown;
}

/**
 * A read whose rows are wanted as the JSON text of an answer: an array holding one object per row,
 * made by the database and handed over unparsed, for a list answered as it is read (the
 * explorer's 20,000 projects, the member list: no JSON.parse of the rows, no object per row, no
 * JSON.stringify of them again). It comes as its UTF-8 bytes, on SQLite a Buffer copied from the
 * database's own: a string would be decoded from UTF-8 on the way in and encoded again to be sent.
 *
 * Each object and the array's order are the resource's projection's (`jsonShape`, `textOrder`),
 * over the query's columns as `r.<column>`; text is compared by code points (bytes on SQLite; on
 * PostgreSQL by the C collation, where its default follows the locale).
 */
export interface JsonTextSet {
  query: Knex.QueryBuilder;
  projection: Pick<Projection<never, unknown>, 'jsonShape' | 'textOrder'>;
  /**
   * On SQLite, keeps an index out of the order's leading part (a unary +), so that a few rows found
   * another way are sorted rather than the whole table read in the index's order.
   */
  keepIndexOutOfOrder?: boolean;
}

/** Rows of several reads, by name. */
export type RowSets = Record<string, RowSet | JsonTextSet>;

/** What a prepared row-set read answers: each set's rows, or its JSON text, by the set's name. */
export type RowSetsOf<Sets extends RowSets> = {
  [Name in keyof Sets]: Sets[Name] extends JsonTextSet ? Buffer : unknown[];
};

/**
 * The rows of several reads in one statement, each set built into one JSON text by the database
 * and parsed once here, instead of crossing the driver one value at a time: the sqlite3 driver
 * makes every value of every row a separate JavaScript value, which is most of the cost of a long
 * list (the figures: bench/README.md, "Figures behind the code"), and
 * each statement is a trip to the driver's thread. For lists the app reads whole.
 *
 * Each row travels as an array of its values, in `columns` order, and becomes an object here:
 * the database builds an array with less work than an object and hands over a shorter text, and
 * JSON.parse reads one faster than an object, whose every key it must look up and whose shape it
 * must build, even counting the objects made here.
 *
 * The statement is prepared (`preparedQuery`): `build` makes the sets from named parameters,
 * and is held to the same rules.
 *
 * The rows carry the `columns` named, and only those; values keep their types: text stays text, numbers numbers
 * and NULL null, on both engines (PostgreSQL's bigint counts come back as numbers here, where its
 * driver gives strings: mappers take either).
 */
export function preparedRowSets<Params extends Record<string, ParamValue>, Sets extends RowSets>(
  build: (db: Executor, params: Params) => Sets,
): (db: Executor, params: Params) => Promise<RowSetsOf<Sets>> {
  let names: string[] = [];
  let shapes: (Pick<RowSet, 'columns' | 'row'> | 'text')[] = [];
  const read = preparedQuery<Params, Record<string, unknown>>((db, params) => {
    const sets = build(db, params);
    names = Object.keys(sets);
    shapes = Object.values(sets).map((set) => (isJsonTextSet(set) ? 'text' : { columns: set.columns, row: set.row }));
    return rowSetsQuery(db, sets);
  });
  return async (db, params) => {
    const [result] = await read(db, params);
    const answer: Record<string, unknown> = {};
    names.forEach((name, i) => {
      const value = result![`set_${i}`];
      const shape = shapes[i]!;
      if (shape === 'text') {
        // SQLite's comes as a blob; PostgreSQL's as text (a bytea crosses the wire as hex, twice
        // its size, for the driver to decode, far slower than encoding it here).
        answer[name] = typeof value === 'string' ? Buffer.from(value) : value;
        return;
      }
      const rows = (typeof value === 'string' ? JSON.parse(value) : value) as unknown[][];
      const { columns, row } = shape;
      answer[name] = row ? rows.map((values) => row(values)) : rowObjects(rows, columns);
    });
    return answer as RowSetsOf<Sets>;
  };
}

const isJsonTextSet = (set: RowSet | JsonTextSet): set is JsonTextSet => 'projection' in set;

/** The rows of one read whole, as `preparedRowSets` reads them. */
export function preparedRows<Params extends Record<string, ParamValue>, Row>(
  build: (db: Executor, params: Params) => RowSet,
): (db: Executor, params: Params) => Promise<Row[]> {
  const read = preparedRowSets((db, params: Params) => ({ rows: build(db, params) }));
  return async (db, params) => (await read(db, params)).rows as Row[];
}

/** Each row's values, in `columns` order, as an object keyed by the column names. */
function rowObjects(rows: unknown[][], columns: readonly string[]): Record<string, unknown>[] {
  const objects = new Array<Record<string, unknown>>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const values = rows[i]!;
    const object: Record<string, unknown> = {};
    for (let c = 0; c < columns.length; c++) object[columns[c]!] = values[c];
    objects[i] = object;
  }
  return objects;
}

/**
 * One statement selecting each set as a JSON array of rows, `set_0`, `set_1`, … in the order of
 * `sets`; each row is an array of its values in `columns` order, or a JSON text set's object.
 */
function rowSetsQuery(db: Executor, sets: RowSets): Knex.QueryBuilder {
  const onPostgres = isPostgres(db);
  const selects = Object.values(sets).map((set, i) => {
    if (isJsonTextSet(set)) return db.raw(`(?) as set_${i}`, [jsonArrayText(db, set)]);
    const values = set.columns.map(qualified).join(', ');
    const rows = onPostgres
      ? `(select coalesce(json_agg(json_build_array(${values})), '[]'::json) from (?) as r)`
      : `(select json_group_array(json_array(${values})) from (?) as r)`;
    return db.raw(`${rows} as set_${i}`, [set.query]);
  });
  return db.select(selects);
}

/**
 * The select that makes a JSON text set's array from its query (aliased `r`). SQLite keeps the
 * order of a FROM-clause subquery whose outer query aggregates with anything but count(), min() or
 * max(), which json_group_array is: the order is the subquery's, which an index can give as it is
 * read (an ORDER BY in the aggregate would sort again). PostgreSQL promises no such thing: its
 * aggregate sorts.
 */
function jsonArrayText(db: Executor, set: JsonTextSet): Knex.Raw {
  const object = jsonObjectSql(db, set.projection.jsonShape);
  const postgres = isPostgres(db);
  const order = set.projection.textOrder.map(({ column, folded }, i) => {
    const value = set.keepIndexOutOfOrder && !postgres && i === 0 ? `+${qualified(column)}` : qualified(column);
    const text = folded ? `lower(${value})` : value;
    return postgres ? `${text} collate "C"` : text;
  });
  if (postgres) {
    const array = `coalesce('[' || string_agg(?, ',' order by ${order.join(', ')}) || ']', '[]')`;
    return db.raw(`select ${array} from (?) as r`, [object, set.query]);
  }
  const ordered = `select * from (?) as r order by ${order.join(', ')}`;
  return db.raw(`select cast(json_group_array(?) as blob) from (${ordered}) as r`, [object, set.query]);
}

/**
 * The compact text of one JSON object of the shape given, over the columns of `r`, its members in
 * the shape's order. SQLite's json_object writes it so; PostgreSQL's json_build_object would put
 * spaces around every colon and comma, so there the text is joined from to_json's values. Member
 * and column names are the projections' own, never input.
 */
export function jsonObjectSql(db: Executor, shape: JsonShape): Knex.Raw {
  return db.raw(jsonObjectText(isPostgres(db), shape));
}

function jsonObjectText(postgres: boolean, shape: JsonShape): string {
  const entries = Object.entries(shape);
  for (const [name] of entries)
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`JSON object: "${name}" is not a member name`);
  /** A nested object's text, or NULL where its `when` column is. */
  const nested = (member: { object: JsonShape; when: string | undefined }) => {
    const object = jsonObjectText(postgres, member.object);
    return member.when === undefined
      ? object
      : `case when ${qualified(member.when)} is null then null else ${object} end`;
  };
  if (!postgres) {
    const values = entries.map(
      ([name, member]) => `'${name}', ${'column' in member ? qualified(member.column) : `json(${nested(member)})`}`,
    );
    return `json_object(${values.join(', ')})`;
  }
  const parts = entries.map(([name, member], i) => {
    const text = 'column' in member ? `to_json(${qualified(member.column)})::text` : `(${nested(member)})::text`;
    return `'${i === 0 ? '{' : ','}"${name}":' || coalesce(${text}, 'null')`;
  });
  return `(${parts.join(' || ')} || '}')`;
}

/**
 * A column's value, qualified by the row set's alias. Column names are the stores' own
 * identifiers, never input. Qualified, a misnamed column fails on both engines: SQLite would read
 * a bare double-quoted name that matches no column as a string.
 */
function qualified(column: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(column)) throw new Error(`row sets: "${column}" is not a column name`);
  return `r.${column}`;
}
