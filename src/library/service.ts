import type { CapacityService } from '../capacity/service.js';
import type { Clock } from '../config/clock.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { FolderTree } from '../folder-tree/tree.js';
import type { LibraryFolderStore, LibraryFolderWithCounts } from './store.js';

/**
 * The agent library: the shared folder-tree rules (src/folder-tree/tree.ts) over
 * `library_folders`, where a folder holding a role or a skill, disabled or not, is not empty.
 * Roles and skills name their folder by `libraryFolderId` (`requireActive` checks it).
 */
export class LibraryService extends FolderTree {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly folders: LibraryFolderStore,
    clock: Clock,
    capacity: CapacityService,
  ) {
    super(unitOfWork, clock, capacity, {
      store: folders,
      holdsContent: (db, organizationId, folderId) => folders.holdsRoleOrSkill(db, organizationId, folderId),
      contentName: 'active folders, roles or skills',
      folderName: 'agent library folder',
      auditTarget: 'library_folder',
    });
  }

  /** Every active folder of the organization's library with its roles and skills counted. */
  list(organizationId: string): Promise<LibraryFolderWithCounts[]> {
    return this.folders.listActiveWithCounts(this.unitOfWork.executor, organizationId);
  }
}
