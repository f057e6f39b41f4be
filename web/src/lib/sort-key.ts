/**
 * Sort keys between two siblings. The server makes ten-digit keys a step of 1000 apart; a key
 * between two of those is their midpoint. Otherwise any string strictly between the two works
 * (the server orders by code units), built character by character.
 */
const DIGITS = /^\d{10}$/;

export function keyBetween(before: string | null, after: string | null): string | null {
  if (before !== null && after !== null && before >= after) return null;
  if ((before === null || DIGITS.test(before)) && (after === null || DIGITS.test(after))) {
    const lo = before === null ? 0 : Number(before);
    const hi = after === null ? 1e10 : Number(after);
    if (hi - lo > 1) return String(Math.floor((lo + hi) / 2)).padStart(10, '0');
  }
  if (after === null) return `${before ?? ''}0`;
  const a = before ?? '';
  let prefix = '';
  for (let i = 0; ; i += 1) {
    const ca = i < a.length ? a.charCodeAt(i) : 32;
    const cb = i < after.length ? after.charCodeAt(i) : 127;
    if (cb - ca > 1) return prefix + String.fromCharCode(Math.max(33, Math.floor((ca + cb) / 2)));
    if (i >= a.length && i >= after.length) return null;
    prefix += i < a.length ? a[i] : String.fromCharCode(33);
    if (prefix > a && prefix < after) return prefix;
  }
}
