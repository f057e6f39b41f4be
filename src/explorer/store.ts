import type { Knex } from 'knex';
import { isPostgres } from '../db/connect.js';
import { jsonObjectSql, preparedRowSets, type JsonTextSet } from '../db/json-rows.js';
import type { Executor } from '../db/unit-of-work.js';
import { grantsOfUser } from '../grants/store.js';

/** A folder of the tree, with its active projects and active child folders counted. */
export interface ExplorerFolderRecord {
  id: string;
  parent_id: string | null;
  name: string;
  sort_key: string;
  project_count: number;
  child_folder_count: number;
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
   * as the UTF-8 JSON text of the answer's `projects` (ExplorerProject objects, each with its live
   * binding), ordered by lower(name), name and id compared by code points.
   */
  async tree(db: Executor, organizationId: string): Promise<{ folders: ExplorerFolderRecord[]; projectsJson: Buffer }> {
    const { folders, projectCounts, projects } = await treeRowSets(db, { organizationId });
    return {
      folders: withCounts(folders as FolderRow[], projectCounts as ProjectCountRow[]),
      projectsJson: projects,
    };
  }

  /**
   * Active projects on which the user holds any grant (all grants are READ or higher), as the UTF-8
   * JSON text of the answer's `projects`, in the tree's order.
   */
  async projectsOfUser(db: Executor, organizationId: string, userId: string): Promise<Buffer> {
    return (await userProjectRowSets(db, { organizationId, userId })).projects;
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
  projects: projectsText(db, db('projects as p'), organizationId, PROJECT_ORDER),
}));

/**
 * The order of a list of projects: lower(name), name and id. lower() folds A–Z as toLowerCase does
 * on both engines, so this is the list's order unless a name holds a character `isInListOrder`
 * looks for.
 */
const PROJECT_ORDER = ['lower(r.name)', 'r.name', 'r.id'];

/**
 * The organization's active projects among `from` (aliased `p`) as ExplorerProject objects, each
 * with its live binding, in `orderBy` (PROJECT_ORDER, or the same order written otherwise).
 */
function projectsText(
  db: Executor,
  from: Knex.QueryBuilder,
  organizationId: string,
  orderBy: readonly string[],
): JsonTextSet {
  return {
    query: activeProjectsIn(organizationId, from)
      .leftJoin('project_bindings as b', (on) =>
        on.on('b.organization_id', 'p.organization_id').andOn('b.project_id', 'p.id').andOnNull('b.archived_at'),
      )
      .select('b.chat_id as binding_chat_id', 'b.created_at as binding_created_at'),
    members: {
      id: { value: 'r.id' },
      name: { value: 'r.name' },
      folderId: { value: 'r.folder_id' },
      createdAt: { value: 'r.created_at' },
      binding: { json: bindingOf(db) },
    },
    orderBy,
  };
}

/**
 * A project's live binding as JSON, or NULL, from the columns its join gave `r` (a project has at
 * most one: project_bindings_active_project_unique). A join: a binding looked up in a subquery,
 * even only for the projects in the organization's set of bound ones, made PostgreSQL estimate
 * 20,000 look-ups and compile the statement (JIT, ~20 ms a call); on SQLite either costs the same.
 */
function bindingOf(db: Executor): Knex.Raw {
  const binding = jsonObjectSql(db, {
    chatId: { value: 'r.binding_chat_id' },
    createdAt: { value: 'r.binding_created_at' },
  });
  return db.raw('case when r.binding_chat_id is null then null else ? end', [binding]);
}

const userProjectRowSets = preparedRowSets(
  (db, { organizationId, userId }: { organizationId: string; userId: string }) => {
    // Driven from the caller's grants, then projects by primary key: the cost follows the
    // caller's grants, not the organization's project count.
    const granted = grantsOfUser(db, organizationId, userId).distinct('g.project_id as project_id');
    const from = db.from(granted.as('mine')).join('projects as p', 'p.id', 'mine.project_id');
    // SQLite would rather read the organization's projects in this order from their name index and
    // look each up among the grants (20,000 projects: 12 ms against 4): a unary + keeps the index
    // out of the order, so the grants drive and the few rows are sorted. PostgreSQL plans by
    // statistics and has no unary + for text.
    const orderBy = isPostgres(db) ? PROJECT_ORDER : ['lower(+r.name)', 'r.name', 'r.id'];
    return { projects: projectsText(db, from, organizationId, orderBy) };
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
