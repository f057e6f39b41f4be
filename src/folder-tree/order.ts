import { byCodeUnits, byName } from '../shared/order.js';

/** How every folder tree lists its folders: by sortKey, then name, then id, so the order is total. */
export const folderOrder = (
  a: { sortKey: string; name: string; id: string },
  b: { sortKey: string; name: string; id: string },
): number => byCodeUnits(a.sortKey, b.sortKey) || byName(a.name, b.name) || byCodeUnits(a.id, b.id);
