import type { UnitOfWork } from '../db/unit-of-work.js';
import type { ExplorerFolderRecord, ExplorerStore } from './store.js';

/** The read side of the folder tree: plain reads, each one statement outside any transaction. */
export class ExplorerService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly explorer: ExplorerStore,
  ) {}

  /**
   * The organization's whole tree in one statement: every active folder with its active projects
   * and child folders counted, and every active project with its live chat binding, as the
   * answer's JSON text.
   */
  tree(organizationId: string): Promise<{ folders: ExplorerFolderRecord[]; projectsJson: Buffer }> {
    return this.explorer.tree(this.uow.reader, organizationId);
  }

  /** Active projects on which the user holds any grant, as the answer's JSON text. */
  projectsOfUser(organizationId: string, userId: string): Promise<Buffer> {
    return this.explorer.projectsOfUser(this.uow.reader, organizationId, userId);
  }
}
