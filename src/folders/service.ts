import type { CapacityService } from '../capacity/service.js';
import type { Clock } from '../config/clock.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { FolderTree } from '../folder-tree/tree.js';
import type { FolderStore } from './store.js';

export type { FolderChanges } from '../folder-tree/tree.js';

/**
 * The project folder tree: the shared folder-tree rules (src/folder-tree/tree.ts) over the
 * `folders` table, where a folder holding an active project is not empty.
 */
export class FolderService extends FolderTree {
  constructor(uow: UnitOfWork, folders: FolderStore, clock: Clock, capacity: CapacityService) {
    super(uow, clock, capacity, {
      store: folders,
      holdsContent: (db, organizationId, folderId) => folders.hasActiveProject(db, organizationId, folderId),
      contentName: 'active folders or projects',
      folderName: 'folder',
      auditTarget: 'folder',
    });
  }
}
