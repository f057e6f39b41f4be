import { isAscii } from 'node:buffer';
import type { ListOrder } from './pagination.js';

/**
 * A character after which the database's order of a list by name can differ from the list's
 * order in code: one that lower-casing changes, other than A–Z, or one beyond the Basic
 * Multilingual Plane (UTF-16 sorts it before U+E000–U+FFFF; code points, after).
 */
const FOLDED_APART = /(?![A-Z])\p{Changes_When_Lowercased}|[\u{10000}-\u{10FFFF}]/u;

/**
 * Whether a list the database wrote as JSON text (`JsonTextSet` in db/json-rows.ts), ordered by
 * lower(name), name and then a unique key, each compared by code points, is in the list's order
 * in code (`byName`, then `byCodeUnits`). It is unless a character of `FOLDED_APART` occurs:
 * lower() folds A–Z as toLowerCase does and leaves the rest (SQLite's folds nothing else; the
 * characters PostgreSQL's locale would fold are all in that set), and code points order every
 * other character as UTF-16 does. An ASCII text needs no decoding (3.5 MB: well under 1 ms); any
 * other is decoded and searched (members' 20 KB: ~25 µs; parsing and sorting it again: ~100).
 */
export const isInListOrder = (text: Buffer): boolean => isAscii(text) || !FOLDED_APART.test(text.toString('utf8'));

/** A listed text's items, sorted into the list's order (for a text `isInListOrder` refused, or a page of it). */
export function sortedItemsOf<T>(text: Buffer, order: ListOrder<T>): T[] {
  return order.sorted(JSON.parse(text.toString('utf8')) as T[]);
}
