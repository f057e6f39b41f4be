import type { Executor } from '../db/unit-of-work.js';
import { FolderTreeStore, type FolderRecord } from '../folder-tree/store.js';

export interface LibraryFolderWithCounts extends FolderRecord {
  role_count: number | string;
  skill_count: number | string;
}

/** The agent library's folder tree (`library_folders`); the tree's shared SQL is FolderTreeStore. */
export class LibraryFolderStore extends FolderTreeStore {
  constructor() {
    super('library_folders');
  }

  /** Active folders with the roles and skills directly in each (disabled ones included), in one statement. */
  async listActiveWithCounts(db: Executor, organizationId: string): Promise<LibraryFolderWithCounts[]> {
    const countsOf = (table: string) =>
      db(table)
        .where('organization_id', organizationId)
        .whereNotNull('library_folder_id')
        .groupBy('library_folder_id')
        .select('library_folder_id', db.raw('count(*) as n'));
    return db('library_folders as f')
      .leftJoin(countsOf('agent_roles').as('rc'), 'rc.library_folder_id', 'f.id')
      .leftJoin(countsOf('agent_skills').as('sc'), 'sc.library_folder_id', 'f.id')
      .where('f.organization_id', organizationId)
      .whereNull('f.archived_at')
      .select('f.*', db.raw('coalesce(rc.n, 0) as role_count'), db.raw('coalesce(sc.n, 0) as skill_count'));
  }

  /** Whether a role or a skill (disabled ones too) of the organization sits in the folder. */
  async holdsRoleOrSkill(db: Executor, organizationId: string, folderId: string): Promise<boolean> {
    for (const table of ['agent_roles', 'agent_skills']) {
      const held = await db(table).where({ organization_id: organizationId, library_folder_id: folderId }).first('id');
      if (held !== undefined) return true;
    }
    return false;
  }
}
