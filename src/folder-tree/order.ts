import { byCodeUnits, byName } from '../shared/order.js';
import { listOrder } from '../shared/pagination.js';

/** How every folder tree lists its folders: by sortKey, then name, then id, so the order is total. */
export const folderOrder = listOrder(
  (folder: { sortKey: string; name: string; id: string }) => [folder.sortKey, folder.name, folder.id],
  byCodeUnits,
  byName,
  byCodeUnits,
);
