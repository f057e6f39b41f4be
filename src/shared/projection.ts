import { byCodeUnits, byName } from './order.js';
import { type CursorKey, type ListOrder, listOrder, type Page, type PageRequest, pageOf } from './pagination.js';

/**
 * A resource's projection: its API shape declared once, field by field over the columns of its
 * row, with the order its lists keep. The row→API mapper, the JSON the database writes for a
 * list (`JsonTextSet`), the SQL order and the order kept in code all come from it, so a field
 * is added in one line, and the compiler checks each line against the generated API type and the
 * row type.
 */

/** The columns of `Row` whose values the API field takes as they are. */
type ColumnOf<Row, Value> = { [C in keyof Row & string]: Row[C] extends Value ? C : never }[keyof Row & string];

/** A column whose value a function turns into the field's (a count as a number, stored JSON parsed). */
type Converted<Row, Value> = {
  [C in keyof Row & string]: { column: C; as: (value: Row[C]) => Value };
}[keyof Row & string];

/** A field made in code from the whole row; the database cannot write it. */
interface Computed<Row, Value> {
  from: (row: Row) => Value;
}

/** The row as it is where `when` is not null: the columns of a left join are there too. */
type Present<Row> = { [C in keyof Row]: NonNullable<Row[C]> };

/**
 * A nested object over the same row's columns. A nullable one names the column (`when`) whose
 * null makes the object null, typically the key of the joined row it shows.
 */
type Nested<Row, Value> = null extends Value
  ? { object: Fields<Present<Row>, NonNullable<Value>>; when: keyof Row & string }
  : { object: Fields<Row, Value> };

type Field<Row, Value> =
  | ColumnOf<Row, Value>
  | Converted<Row, Value>
  | Computed<Row, Value>
  | (NonNullable<Value> extends readonly unknown[]
      ? never
      : NonNullable<Value> extends object
        ? Nested<Row, Value>
        : never);

/** Every field of the API shape, in the order the API writes them, over the row's columns. */
export type Fields<Row, Api> = { [K in keyof Api]-?: Field<Row, Api[K]> };

/**
 * A part compared by its value's place among `ranks`, the last first: an enumeration whose values
 * are ordered by meaning rather than spelling (grant roles, strongest first).
 */
export interface RankDescending {
  rankDescending: readonly string[];
}

/**
 * How one part of the order compares: `name` as people read names (case-folded, then exactly),
 * `codeUnits` exactly, `number` numerically; `…Descending` the other way round.
 */
export type KeyOrder = 'name' | 'codeUnits' | 'codeUnitsDescending' | 'number' | 'numberDescending' | RankDescending;

/** One part of a list's order: a column and how it compares. The parts together are unique. */
export interface OrderKey<Row> {
  column: keyof Row & string;
  by: KeyOrder;
}

export interface ProjectionDeclaration<Row, Api> {
  fields: Fields<Row, Api>;
  /** The list's order, most significant part first; absent for a resource never listed. */
  order?: readonly OrderKey<Row>[];
}

/** A JSON object as the database writes it: each member a column of the row, or a nested object. */
export type JsonShape = Record<string, { column: string } | { object: JsonShape; when: string | undefined }>;

/** A part of the SQL order: a text expression over a column, compared by code points. */
export interface SqlOrderPart {
  column: string;
  /** Whether the part is the column's value folded by lower(), else the value itself. */
  folded: boolean;
}

export interface Projection<Row, Api> {
  /** The API shape of a row. */
  toApi(row: Row): Api;
  /** The order of the API items (sorting, and finding where a cursor's page starts). */
  readonly order: ListOrder<Api>;
  /** One page of the list of all these rows, as the API shows it, in the list's order. */
  pageOf(rows: readonly Row[], request: PageRequest): Page<Api>;
  /** A row's place in the order, as a cursor holds it (for lists paged in SQL). */
  keyOfRow(row: Row): CursorKey;
  /** The order in SQL terms: each part's column and direction, for knex's `orderBy`. */
  readonly sqlOrder: { column: string; order: 'asc' | 'desc' }[];
  /** The order as text expressions compared by code points (`name` parts folded first). */
  readonly textOrder: SqlOrderPart[];
  /** The API object as the database writes it for a list (`JsonTextSet`). */
  readonly jsonShape: JsonShape;
}

/**
 * The projection of a row type `Row` to the API type `Api` (`Schema<'…'>`). Declared as
 * `projection<Row, Api>()({ fields, order })`, so both types are named and the fields checked.
 */
export function projection<Row, Api>(): (declaration: ProjectionDeclaration<Row, Api>) => Projection<Row, Api> {
  return (declaration) => compile(declaration as unknown as ProjectionDeclaration<RowObject, unknown>) as never;
}

type RowObject = Record<string, unknown>;
type AnyField =
  | string
  | { column: string; as: (value: unknown) => unknown }
  | { from: (row: RowObject) => unknown }
  | AnyNested;
interface AnyNested {
  object: Record<string, AnyField>;
  when?: string;
}

const COMPARATORS: Record<Exclude<KeyOrder, RankDescending>, (a: never, b: never) => number> = {
  name: byName,
  codeUnits: byCodeUnits,
  codeUnitsDescending: (a: string, b: string) => byCodeUnits(b, a),
  number: (a: number, b: number) => a - b,
  numberDescending: (a: number, b: number) => b - a,
};

const comparatorOf = (by: KeyOrder): ((a: never, b: never) => number) => {
  if (typeof by === 'string') return COMPARATORS[by];
  const { rankDescending: ranks } = by;
  return (a: string, b: string) => ranks.indexOf(b) - ranks.indexOf(a);
};

const isNumeric = (by: KeyOrder) => by === 'number' || by === 'numberDescending';
const isDescending = (by: KeyOrder) => typeof by === 'string' && by.endsWith('Descending');

function compile(declaration: ProjectionDeclaration<RowObject, unknown>): Projection<RowObject, unknown> {
  const fields = declaration.fields as unknown as Record<string, AnyField>;
  const keys = declaration.order ?? [];
  const toApi = mapperOf(fields);
  let order: ListOrder<unknown> | undefined;
  const orderOfItems = () => {
    order ??= apiOrder(fields, keys);
    return order;
  };
  return {
    toApi,
    get order() {
      return orderOfItems();
    },
    pageOf: (rows, request) => pageOf(orderOfItems().sorted(rows.map(toApi)), request, orderOfItems()),
    keyOfRow: (row) => keys.map(({ column, by }) => (isNumeric(by) ? Number(row[column]) : (row[column] as string))),
    get sqlOrder() {
      return sqlOrderOf(keys);
    },
    get textOrder() {
      return textOrderOf(keys);
    },
    get jsonShape() {
      return jsonShapeOf(fields);
    },
  };
}

/** The mapper: one API object per row, its fields in the declared order. */
function mapperOf(fields: Record<string, AnyField>): (row: RowObject) => unknown {
  const entries = Object.entries(fields).map(([name, field]) => [name, readerOf(field)] as const);
  return (row) => {
    const api: RowObject = {};
    for (const [name, value] of entries) api[name] = value(row);
    return api;
  };
}

function readerOf(field: AnyField): (row: RowObject) => unknown {
  if (typeof field === 'string') return (row) => row[field];
  if ('from' in field) return field.from;
  if ('column' in field) {
    const { column, as } = field;
    return (row) => as(row[column]);
  }
  const object = mapperOf(field.object);
  const { when } = field;
  return when === undefined ? object : (row) => (row[when] === null || row[when] === undefined ? null : object(row));
}

/** The order of API items: each part's column is shown by a field, whose value the item's key holds. */
function apiOrder(fields: Record<string, AnyField>, keys: readonly OrderKey<RowObject>[]): ListOrder<unknown> {
  const names = keys.map(({ column }) => {
    const name = Object.keys(fields).find((field) => columnOf(fields[field]!) === column);
    if (name === undefined) throw new Error(`projection: no field shows the order's column "${column}"`);
    return name;
  });
  const comparators = keys.map(({ by }) => comparatorOf(by)) as ((a: string | number, b: string | number) => number)[];
  return listOrder(
    (item: unknown) => names.map((name) => (item as RowObject)[name] as string | number),
    ...comparators,
  );
}

/** The order for knex's `orderBy`; a ranked part has no order SQL would keep. */
function sqlOrderOf(keys: readonly OrderKey<RowObject>[]): { column: string; order: 'asc' | 'desc' }[] {
  return keys.map(({ column, by }) => {
    if (typeof by !== 'string') throw new Error(`projection: "${column}" is ranked, an order SQL does not keep`);
    return { column, order: isDescending(by) ? 'desc' : 'asc' };
  });
}

/** The order as text expressions, for a list the database writes in it: ascending text parts only. */
function textOrderOf(keys: readonly OrderKey<RowObject>[]): SqlOrderPart[] {
  return keys.flatMap(({ column, by }) => {
    if (by !== 'name' && by !== 'codeUnits') throw new Error(`projection: "${column}" is no ascending text part`);
    if (by === 'codeUnits') return [{ column, folded: false }];
    return [
      { column, folded: true },
      { column, folded: false },
    ];
  });
}

const columnOf = (field: AnyField): string | undefined =>
  typeof field === 'string' ? field : 'column' in field ? field.column : undefined;

function jsonShapeOf(fields: Record<string, AnyField>): JsonShape {
  return Object.fromEntries(
    Object.entries(fields).map(([name, field]) => {
      if (typeof field === 'string') return [name, { column: field }];
      if ('object' in field) return [name, { object: jsonShapeOf(field.object), when: field.when }];
      throw new Error(`projection: the database cannot write "${name}", which code makes`);
    }),
  );
}
