import { byCodeUnits } from '../shared/order.js';

const GENERATED = /^\d{10}$/;
const STEP = 1000;

/**
 * A sort key that places a new folder after every sibling. Keys the service makes are
 * ten-digit numbers a step apart, which leaves room for clients to slot keys in between;
 * after a client-chosen key, appending a character is the shortest key that sorts after it.
 */
export function sortKeyAfter(siblingKeys: readonly string[]): string {
  const last = [...siblingKeys].sort(byCodeUnits).pop();
  if (last === undefined) return String(STEP).padStart(10, '0');
  if (GENERATED.test(last) && Number(last) + STEP < 1e10) return String(Number(last) + STEP).padStart(10, '0');
  return `${last}0`;
}
