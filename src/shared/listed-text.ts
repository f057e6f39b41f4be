import { isAscii } from 'node:buffer';
import { type ListOrder, type PageRequest, pageOf } from './pagination.js';

/**
 * Whether a list the database wrote as JSON text (`JsonTextSet` in db/json-rows.ts), ordered by
 * lower(name), name and then a unique key, each compared by code points, is in the list's order
 * in code (`byName`, then `byCodeUnits`).
 *
 * It is unless the text holds a character toLowerCase changes, other than A–Z, or one beyond the
 * Basic Multilingual Plane. lower() folds A–Z as toLowerCase does, and SQLite's folds nothing
 * else (PostgreSQL's locale may fold more, but only characters toLowerCase changes too); code
 * points order every character of the BMP as UTF-16 code units do, and those beyond it differently.
 *
 * The text is searched as it came, never decoded: an ASCII text is known at once, any other is
 * matched byte for byte against the UTF-8 of those characters, faster than decoding and then
 * searching it (the figures: bench/README.md, "Figures behind the code").
 */
export function isInListOrder(text: Buffer): boolean {
  if (isAscii(text)) return true;
  foldedApart ??= foldedApartPattern();
  // Latin-1 makes one character of each byte, by copying.
  return !foldedApart.test(text.toString('latin1'));
}

/**
 * A list the database wrote as JSON text from a projection (`JsonTextSet` in db/json-rows.ts), in
 * the projection's order as far as SQL keeps it: an answer holds it in place of the array of its
 * items, and it is sent as it is (no parse, no object per item, no serializing again).
 */
export class ListedText<Item> {
  declare private readonly item?: Item;

  constructor(
    /** The array's JSON text, in UTF-8. */
    readonly bytes: Buffer,
    readonly order: ListOrder<Item>,
  ) {}

  /** The items, parsed and sorted into the list's order. */
  items(): Item[] {
    return this.order.sorted(JSON.parse(this.bytes.toString('utf8')) as Item[]);
  }

  /** The whole list: this text when `isInListOrder` takes it, else its items sorted here. */
  whole(): ListedText<Item> | Item[] {
    return isInListOrder(this.bytes) ? this : this.items();
  }
}

/** A page of a listed text: the text itself for the whole list, else the items of the page. */
export function pageOfListed<Item>(
  listed: ListedText<Item>,
  request: PageRequest,
): { items: Item[] | ListedText<Item>; nextCursor: string | null } {
  if (request.limit === undefined && request.cursor === undefined) return { items: listed.whole(), nextCursor: null };
  return pageOf(listed.items(), request, listed.order);
}

/** Made on the first text beyond ASCII (once, and not cheap): most lists never need it. */
let foldedApart: RegExp | undefined;

/**
 * The UTF-8 of every character `isInListOrder` looks for, as a pattern over bytes read as Latin-1:
 * one alternative per leading byte sequence, ending in a class of last bytes, and any lead byte of
 * a character beyond the BMP. In UTF-8 a lead byte is never a continuation byte, so a match always
 * starts where a character does.
 */
function foldedApartPattern(): RegExp {
  const lastBytes = new Map<string, number[]>();
  for (let codePoint = 0x80; codePoint <= 0xffff; codePoint++) {
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue; // surrogates: never in UTF-8 text
    const character = String.fromCharCode(codePoint);
    if (character.toLowerCase() === character) continue;
    const utf8 = Buffer.from(character);
    const lead = [...utf8.subarray(0, -1)].map(byteEscape).join('');
    const last = lastBytes.get(lead) ?? [];
    last.push(utf8.at(-1)!);
    lastBytes.set(lead, last);
  }
  const alternatives = [...lastBytes].map(([lead, last]) => lead + byteClass(last));
  alternatives.push(byteClass([0xf0, 0xf1, 0xf2, 0xf3, 0xf4]));
  return new RegExp(alternatives.join('|'));
}

const byteEscape = (byte: number): string => `\\x${byte.toString(16).padStart(2, '0')}`;

/** A character class of the bytes given (ascending), runs written as ranges. */
function byteClass(bytes: number[]): string {
  let members = '';
  for (let i = 0; i < bytes.length; ) {
    let end = i;
    while (bytes[end + 1] === bytes[end]! + 1) end++;
    members += end === i ? byteEscape(bytes[i]!) : `${byteEscape(bytes[i]!)}-${byteEscape(bytes[end]!)}`;
    i = end + 1;
  }
  return `[${members}]`;
}
