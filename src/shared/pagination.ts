import { badRequest } from '../errors/api-error.js';
import { byCodeUnits, type FoldedOrder } from './order.js';

/** The optional `limit` and `cursor` of a list operation (docs/decisions.md, "Pagination"). */
export interface PageRequest {
  limit?: number | undefined;
  cursor?: string | undefined;
}

export interface Page<T> {
  items: T[];
  /** Where the next page starts; null on the last page (and when the whole list was asked for). */
  nextCursor: string | null;
}

/** A position in a list: the sort key of the last item a page showed. */
export type CursorKey = readonly (string | number)[];

/** How a list is ordered: each item's sort key (unique within the list) and how two keys compare. */
export interface ListOrder<T> {
  arity: number;
  keyOf(item: T): CursorKey;
  compare(a: CursorKey, b: CursorKey): number;
  /** The items in this order, sorted in place. */
  sorted<Item extends T>(items: Item[]): Item[];
}

type KeyPart = string | number;

type Comparator = (a: KeyPart, b: KeyPart) => number;

/** A sort entry's key until `keyInto` fills it: one shared placeholder, not an array per entry. */
const NO_KEY: CursorKey = [];

/** An item with its sort key computed once, and the folded form of each part that has one. */
interface Keyed<T> {
  item: T;
  key: CursorKey;
  folded: (string | undefined)[];
}

/**
 * A list's order as its sort key and one comparator per part of it, so sorting the list and
 * finding where a cursor's page starts use the one definition.
 */
export function listOrder<T, K extends KeyPart[]>(
  keyOf: (item: T) => [...K],
  ...comparators: { [I in keyof K]: (a: K[I], b: K[I]) => number }
): ListOrder<T> {
  const parts = comparators as unknown as Comparator[];
  const folds = parts.map((comparator) => (comparator as Partial<FoldedOrder>).fold);
  const compare = (a: CursorKey, b: CursorKey): number => {
    for (let i = 0; i < parts.length; i++) {
      const order = parts[i]!(a[i]!, b[i]!);
      if (order !== 0) return order;
    }
    return 0;
  };
  // `compare` on keys made once per item, a folded part by its folded form made once too: what
  // `foldedFirst` compares, without folding both strings at every comparison.
  const compareKeyed = (a: Keyed<T>, b: Keyed<T>): number => {
    for (let i = 0; i < parts.length; i++) {
      const order = folds[i]
        ? byCodeUnits(a.folded[i]!, b.folded[i]!) || byCodeUnits(a.key[i] as string, b.key[i] as string)
        : parts[i]!(a.key[i]!, b.key[i]!);
      if (order !== 0) return order;
    }
    return 0;
  };
  /** Fills `into` with the item, its key and the key's folded parts. */
  const keyInto = <Item extends T>(into: Keyed<Item>, item: Item): Keyed<Item> => {
    const key = keyOf(item);
    into.item = item;
    into.key = key;
    for (let i = 0; i < folds.length; i++) into.folded[i] = folds[i]?.(key[i] as string);
    return into;
  };
  const keyedOf = <Item extends T>(item: Item): Keyed<Item> =>
    keyInto({ item, key: NO_KEY, folded: new Array<string | undefined>(folds.length) }, item);
  // A list the database read in this order (the explorer's projects) is checked rather than
  // sorted: one pass over two entries refilled in turn, so nothing is kept of the items passed,
  // and no array of keys is built, sorted and copied back, which costs less than sorting. Any
  // other list stops the check at its first item out of place.
  const inOrder = (items: T[]): boolean => {
    if (items.length < 2) return true;
    let previous = keyedOf(items[0]!);
    let current = keyedOf(items[1]!);
    for (let i = 2; compareKeyed(previous, current) <= 0; i++) {
      if (i === items.length) return true;
      const spare = previous;
      previous = current;
      current = keyInto(spare, items[i]!);
    }
    return false;
  };
  const sorted = <Item extends T>(items: Item[]): Item[] => {
    if (inOrder(items)) return items;
    const keyed = items.map(keyedOf);
    keyed.sort(compareKeyed);
    for (let i = 0; i < keyed.length; i++) items[i] = keyed[i]!.item;
    return items;
  };
  return { arity: parts.length, keyOf, compare, sorted };
}

/** Opaque to clients: the key of the last item shown, as base64url JSON. */
export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The key a cursor holds; 400 `validation_failed` for anything this service did not issue. */
export function decodeCursor(cursor: string, arity: number): CursorKey {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  const valid =
    Array.isArray(key) &&
    key.length === arity &&
    key.every((part) => typeof part === 'string' || (typeof part === 'number' && Number.isFinite(part)));
  if (!valid) {
    throw badRequest('`cursor` is not a cursor this list issued; start again without one.', [
      { path: '/query/cursor', message: 'unknown cursor' },
    ]);
  }
  return key as CursorKey;
}

/**
 * One page of a list whose order is decided in code. The page starts after the cursor's key
 * (not at an index), so items added or removed meanwhile never shift it: nothing shown is shown
 * again and nothing that was there is skipped. Without `limit`, the whole list, in the shapes
 * the contract gives.
 */
export function pageOf<T>(ordered: readonly T[], request: PageRequest, order: ListOrder<T>): Page<T> {
  let start = 0;
  if (request.cursor !== undefined) {
    const after = decodeCursor(request.cursor, order.arity);
    start = ordered.findIndex((item) => order.compare(order.keyOf(item), after) > 0);
    if (start === -1) start = ordered.length;
  }
  if (request.limit === undefined) return { items: ordered.slice(start), nextCursor: null };
  const items = ordered.slice(start, start + request.limit);
  const more = start + request.limit < ordered.length;
  return { items, nextCursor: more ? encodeCursor(order.keyOf(items[items.length - 1]!)) : null };
}

/**
 * A page of a list paged in SQL: `rows` are up to `limit + 1` rows read in the list's order
 * after the cursor; the extra one is not shown, it only says that another page follows.
 */
export function pageOfRows<T>(rows: readonly T[], limit: number, keyOf: (row: T) => CursorKey): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(keyOf(last)) : null };
}
