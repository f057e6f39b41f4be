import type { Knex } from 'knex';
import { preparedRows } from '../db/json-rows.js';
import type { Executor } from '../db/unit-of-work.js';
import { FolderTreeStore, type FolderRecord } from '../folder-tree/store.js';

export type { FolderRecord };

export interface FolderWithCounts extends FolderRecord {
  project_count: number | string;
  child_folder_count: number | string;
}

/** The project folder tree of each organization (`folders`); the tree's shared SQL is FolderTreeStore. */
export class FolderStore extends FolderTreeStore {
  constructor() {
    super('folders');
  }

  /** Active folders with their active projects and child folders counted, in one statement. */
  async listActiveWithCounts(db: Executor, organizationId: string): Promise<FolderWithCounts[]> {
    return activeFolderRows(db, { organizationId });
  }

  /** Whether the folder still holds an active project. */
  async hasActiveProject(db: Executor, folderId: string): Promise<boolean> {
    return (await db('projects').where({ folder_id: folderId }).whereNull('archived_at').first('id')) !== undefined;
  }
}

const FOLDER_COLUMNS = ['id', 'organization_id', 'parent_id', 'name', 'sort_key', 'created_at', 'archived_at'] as const;
/** What `activeFoldersWithCounts` selects, named as a `FolderWithCounts` names them. */
export const FOLDER_WITH_COUNTS_COLUMNS = [...FOLDER_COLUMNS, 'project_count', 'child_folder_count'] as const;

const activeFolderRows = preparedRows<{ organizationId: string }, FolderWithCounts>((db, { organizationId }) => ({
  query: activeFoldersWithCounts(db, organizationId),
  columns: FOLDER_WITH_COUNTS_COLUMNS,
}));

/** The organization's active project folders, each with its active projects and child folders counted. */
export function activeFoldersWithCounts(db: Executor, organizationId: string): Knex.QueryBuilder {
  /** The organization's active rows of `table` counted per `parent` (the folder they sit in). */
  const countedBy = (table: 'projects' | 'folders', parent: 'folder_id' | 'parent_id') =>
    db(table)
      .where('organization_id', organizationId)
      .whereNull('archived_at')
      .whereNotNull(parent)
      .groupBy(parent)
      .select({ folder_id: parent }, db.raw('count(*) as n'));
  return db('folders as f')
    .leftJoin(countedBy('projects', 'folder_id').as('pc'), 'pc.folder_id', 'f.id')
    .leftJoin(countedBy('folders', 'parent_id').as('cc'), 'cc.folder_id', 'f.id')
    .where('f.organization_id', organizationId)
    .whereNull('f.archived_at')
    .select(
      ...FOLDER_COLUMNS.map((column) => `f.${column}`),
      db.raw('coalesce(pc.n, 0) as project_count'),
      db.raw('coalesce(cc.n, 0) as child_folder_count'),
    );
}
