import type { UnitOfWork } from '../db/unit-of-work.js';
import type { ListedText } from '../shared/listed-text.js';
import type { ExplorerProject } from './projection.js';
import type { ExplorerStore, ExplorerTree } from './store.js';

/** The read side of the folder tree: plain reads, each one statement outside any transaction. */
export class ExplorerService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly explorer: ExplorerStore,
  ) {}

  /**
   * The organization's whole tree in one statement: every active folder with its active projects
   * and child folders counted, and every active project with its live chat binding, as the text
   * of their list.
   */
  tree(organizationId: string): Promise<ExplorerTree> {
    return this.explorer.tree(this.uow.reader, organizationId);
  }

  /** Active projects on which the user holds any grant, as the text of their list. */
  projectsOfUser(organizationId: string, userId: string): Promise<ListedText<ExplorerProject>> {
    return this.explorer.projectsOfUser(this.uow.reader, organizationId, userId);
  }
}
