import type { Knex } from 'knex';
import { preparedRowSets } from '../db/json-rows.js';
import type { Executor } from '../db/unit-of-work.js';
import { grantsOfUser } from '../grants/store.js';

export interface ExplorerProjectRecord {
  id: string;
  name: string;
  folder_id: string | null;
  created_at: string;
  binding_chat_id: string | null;
  binding_created_at: string | null;
}

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

/** The columns of a project as the explorer reads it, before its binding is attached. */
const PROJECT_COLUMNS = ['id', 'name', 'folder_id', 'created_at'] as const;

/**
 * A project's record from its values in `PROJECT_COLUMNS` order, unbound until `withBindings`
 * fills in the few that are bound: one object per project, where an object keyed by the columns
 * and then a copy of it with its binding made two (20,000 projects: ~4 ms and their collection).
 */
const projectRecord = (values: unknown[]): ExplorerProjectRecord => ({
  id: values[0] as string,
  name: values[1] as string,
  folder_id: values[2] as string | null,
  created_at: values[3] as string,
  binding_chat_id: null,
  binding_created_at: null,
});
const BINDING_COLUMNS = ['project_id', 'chat_id', 'created_at'] as const;
type BindingRow = { [Column in (typeof BINDING_COLUMNS)[number]]: string };

/** The read side of the folder tree: one statement per answer, never one per row. */
export class ExplorerStore {
  /** The organization's whole tree: its active folders with their counts, and its active projects. */
  async tree(
    db: Executor,
    organizationId: string,
  ): Promise<{ folders: ExplorerFolderRecord[]; projects: ExplorerProjectRecord[] }> {
    const { folders, projects, bindings } = await treeRowSets(db, { organizationId });
    return {
      folders: withCounts(folders as FolderRow[], projects as ExplorerProjectRecord[]),
      projects: withBindings(projects as ExplorerProjectRecord[], bindings as BindingRow[]),
    };
  }

  /** Active projects on which the user holds any grant (all grants are READ or higher). */
  async projectsOfUser(db: Executor, organizationId: string, userId: string): Promise<ExplorerProjectRecord[]> {
    const { projects, bindings } = await userProjectRowSets(db, { organizationId, userId });
    return withBindings(projects as ExplorerProjectRecord[], bindings as BindingRow[]);
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
  // In about the list's order (projectOrder, by name folded then exact, then id), read from the
  // index kept in that order (migration 20261124100000): no sort here, and the explorer's own
  // sort, which decides the order on both engines, finds the rows sorted and only confirms it
  // (20,000 projects: 21 → ~2 ms). SQLite's lower() folds ASCII only; other names come close.
  projects: {
    query: activeProjectsIn(organizationId, db('projects as p')).orderByRaw('lower(p.name), p.name, p.id'),
    columns: PROJECT_COLUMNS,
    row: projectRecord,
  },
  bindings: { query: liveBindings(db, organizationId), columns: BINDING_COLUMNS },
}));

const userProjectRowSets = preparedRowSets(
  (db, { organizationId, userId }: { organizationId: string; userId: string }) => {
    // Driven from the caller's grants, then projects by primary key: the cost follows the
    // caller's grants, not the organization's project count.
    const granted = grantsOfUser(db, organizationId, userId).distinct('g.project_id as project_id');
    const from = db.from(granted.as('mine')).join('projects as p', 'p.id', 'mine.project_id');
    return {
      projects: { query: activeProjectsIn(organizationId, from), columns: PROJECT_COLUMNS, row: projectRecord },
      bindings: { query: liveBindings(db, organizationId), columns: BINDING_COLUMNS },
    };
  },
);

/** The organization's active projects among `from` (aliased `p`). */
function activeProjectsIn(organizationId: string, from: Knex.QueryBuilder): Knex.QueryBuilder {
  return from
    .where('p.organization_id', organizationId)
    .whereNull('p.archived_at')
    .select(PROJECT_COLUMNS.map((column) => `p.${column}`));
}

/**
 * The organization's live chat bindings, in one range of their index. Matched to the projects
 * here rather than joined: an organization has far fewer bindings than projects, and a join
 * probes the bindings once per project (20,000 projects: most of the explorer's query time).
 */
function liveBindings(db: Executor, organizationId: string): Knex.QueryBuilder {
  return db('project_bindings')
    .where({ organization_id: organizationId })
    .whereNull('archived_at')
    .select(BINDING_COLUMNS);
}

/**
 * Each folder with its counts, made from the rows the tree reads anyway (every active folder and
 * project of the organization): the database counted them with two grouped joins, which SQLite
 * builds and indexes afresh on every call (20,000 projects in 2,000 folders: the statement
 * 22 → 14 ms, for ~2 ms of counting here).
 */
function withCounts(folders: FolderRow[], projects: ExplorerProjectRecord[]): ExplorerFolderRecord[] {
  const projectCount = countBy(projects, (project) => project.folder_id);
  const childCount = countBy(folders, (folder) => folder.parent_id);
  return folders.map(({ id, parent_id, name, sort_key }) => ({
    id,
    parent_id,
    name,
    sort_key,
    project_count: projectCount.get(id) ?? 0,
    child_folder_count: childCount.get(id) ?? 0,
  }));
}

/** How many of the rows sit in each folder (rows in none are not counted). */
function countBy<Row>(rows: Row[], folderOf: (row: Row) => string | null): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const folder = folderOf(row);
    if (folder !== null) counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  return counts;
}

/** Each project's live binding, filled into its record. */
function withBindings(projects: ExplorerProjectRecord[], bindings: BindingRow[]): ExplorerProjectRecord[] {
  if (bindings.length === 0) return projects;
  const bindingOf = new Map(bindings.map((b) => [b.project_id, b]));
  for (const project of projects) {
    const binding = bindingOf.get(project.id);
    if (binding) {
      project.binding_chat_id = binding.chat_id;
      project.binding_created_at = binding.created_at;
    }
  }
  return projects;
}
