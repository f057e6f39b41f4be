import type { UnitOfWork } from '../db/unit-of-work.js';
import type { FolderStore, FolderWithCounts } from '../folders/store.js';
import type { ExplorerProjectRecord, ExplorerStore } from './store.js';

/** The read side of the folder tree: plain reads, each one statement outside any transaction. */
export class ExplorerService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly explorer: ExplorerStore,
    private readonly folders: FolderStore,
  ) {}

  /** Every active folder of the organization with its active projects and child folders counted. */
  activeFolders(organizationId: string): Promise<FolderWithCounts[]> {
    return this.folders.listActiveWithCounts(this.uow.executor, organizationId);
  }

  /** Every active project of the organization with its live chat binding. */
  activeProjects(organizationId: string): Promise<ExplorerProjectRecord[]> {
    return this.explorer.activeProjects(this.uow.executor, organizationId);
  }

  /** Active projects on which the user holds any grant. */
  projectsOfUser(organizationId: string, userId: string): Promise<ExplorerProjectRecord[]> {
    return this.explorer.projectsOfUser(this.uow.executor, organizationId, userId);
  }
}
