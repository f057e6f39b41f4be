import type { Knex } from 'knex';
import { preparedRowSets, type JsonTextSet } from '../db/json-rows.js';
import type { Executor } from '../db/unit-of-work.js';
import { grantsOfUser } from '../grants/store.js';
import { ListedText } from '../shared/listed-text.js';
import { type ExplorerFolderRecord, type ExplorerProject, explorerProjectProjection } from './projection.js';

/** The organization's tree: its active folders with their counts, and its active projects. */
export interface ExplorerTree {
  folders: ExplorerFolderRecord[];
  projects: ListedText<ExplorerProject>;
}

/** The columns of a folder as the explorer reads it, before it is counted. */
const FOLDER_COLUMNS = ['id', 'parent_id', 'name', 'sort_key'] as const;
type FolderRow = Pick<ExplorerFolderRecord, (typeof FOLDER_COLUMNS)[number]>;

/** A folder's count of active projects. */
const PROJECT_COUNT_COLUMNS = ['folder_id', 'projects'] as const;
type ProjectCountRow = { folder_id: string; projects: number | string };

/** The columns of a project the explorer reads; its live binding's are joined beside them. */
const PROJECT_COLUMNS = ['id', 'name', 'folder_id', 'created_at'] as const;

/** The read side of the folder tree: one statement per answer, never one per row. */
export class ExplorerStore {
  /**
   * The organization's whole tree: its active folders with their counts, and its active projects
   * (each with its live binding) as the text of their list (`explorerProjectProjection`).
   */
  async tree(db: Executor, organizationId: string): Promise<ExplorerTree> {
    const { folders, projectCounts, projects } = await treeRowSets(db, { organizationId });
    return {
      folders: withCounts(folders as FolderRow[], projectCounts as ProjectCountRow[]),
      projects: new ListedText(projects, explorerProjectProjection.order),
    };
  }

  /**
   * Active projects on which the user holds any grant (all grants are READ or higher), as the text
   * of their list.
   */
  async projectsOfUser(db: Executor, organizationId: string, userId: string): Promise<ListedText<ExplorerProject>> {
    const { projects } = await userProjectRowSets(db, { organizationId, userId });
    return new ListedText(projects, explorerProjectProjection.order);
  }
}

const treeRowSets = preparedRowSets((db, { organizationId }: { organizationId: string }) => ({
  folders: {
    query: db('folders as f')
      .where('f.organization_id', organizationId)
      .whereNull('f.archived_at')
      .select(FOLDER_COLUMNS.map((column) => `f.${column}`)),
    columns: FOLDER_COLUMNS,
  },
  // Counted from projects_active_org_folder_idx alone, where the projects below are read as text.
  projectCounts: {
    query: db('projects')
      .where('organization_id', organizationId)
      .whereNull('archived_at')
      .whereNotNull('folder_id')
      .groupBy('folder_id')
      .select('folder_id', db.raw('count(*) as projects')),
    columns: PROJECT_COUNT_COLUMNS,
  },
  // On SQLite, read from the index kept in this order (migration 20261124100000), with no sort.
  projects: projectsText(db('projects as p'), organizationId),
}));

/**
 * The organization's active projects among `from` (aliased `p`) as ExplorerProject objects, each
 * with its live binding, in the projection's order: lower(name), name and id. lower() folds A–Z as
 * toLowerCase does on both engines, so this is the list's order unless a name holds a character
 * `isInListOrder` looks for.
 *
 * The binding is joined (a project has at most one: project_bindings_active_project_unique): a
 * binding looked up in a subquery, even only for the projects in the organization's set of bound
 * ones, made PostgreSQL estimate a look-up per project and compile the statement (JIT) on every
 * call; on SQLite either costs the same.
 */
function projectsText(from: Knex.QueryBuilder, organizationId: string, keepIndexOutOfOrder = false): JsonTextSet {
  return {
    query: activeProjectsIn(organizationId, from)
      .leftJoin('project_bindings as b', (on) =>
        on.on('b.organization_id', 'p.organization_id').andOn('b.project_id', 'p.id').andOnNull('b.archived_at'),
      )
      .select('b.chat_id as binding_chat_id', 'b.created_at as binding_created_at'),
    projection: explorerProjectProjection,
    keepIndexOutOfOrder,
  };
}

const userProjectRowSets = preparedRowSets(
  (db, { organizationId, userId }: { organizationId: string; userId: string }) => {
    // Driven from the caller's grants, then projects by primary key: the cost follows the
    // caller's grants, not the organization's project count.
    const granted = grantsOfUser(db, organizationId, userId).distinct('g.project_id as project_id');
    const from = db.from(granted.as('mine')).join('projects as p', 'p.id', 'mine.project_id');
    // SQLite would rather read the organization's projects in this order from their name index and
    // look each up among the grants: keeping the index out of the order lets the grants drive and
    // the few rows be sorted. PostgreSQL plans by statistics.
    return { projects: projectsText(from, organizationId, true) };
  },
);

/** The organization's active projects among `from` (aliased `p`). */
function activeProjectsIn(organizationId: string, from: Knex.QueryBuilder): Knex.QueryBuilder {
  return from
    .where('p.organization_id', organizationId)
    .whereNull('p.archived_at')
    .select(PROJECT_COLUMNS.map((column) => `p.${column}`));
}

/** Each folder with its counts: its active projects as counted, its active child folders from the folders read. */
function withCounts(folders: FolderRow[], projectCounts: ProjectCountRow[]): ExplorerFolderRecord[] {
  const projectCount = new Map(projectCounts.map((row) => [row.folder_id, Number(row.projects)]));
  const childCount = new Map<string, number>();
  for (const { parent_id } of folders)
    if (parent_id !== null) childCount.set(parent_id, (childCount.get(parent_id) ?? 0) + 1);
  return folders.map(({ id, parent_id, name, sort_key }) => ({
    id,
    parent_id,
    name,
    sort_key,
    project_count: projectCount.get(id) ?? 0,
    child_folder_count: childCount.get(id) ?? 0,
  }));
}
