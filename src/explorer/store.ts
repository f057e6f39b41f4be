import type { Knex } from 'knex';
import { jsonRows } from '../db/json-rows.js';
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

/** The columns of a project as the explorer reads it, before its binding is attached. */
const PROJECT_COLUMNS = ['id', 'name', 'folder_id', 'created_at'] as const;
type ProjectRow = Pick<ExplorerProjectRecord, (typeof PROJECT_COLUMNS)[number]>;

/** The read side of the folder tree: one set-based query per list, never one per row. */
export class ExplorerStore {
  /** Every active project of the organization with its live chat binding. */
  activeProjects(db: Executor, organizationId: string): Promise<ExplorerProjectRecord[]> {
    return withBindings(db, organizationId, activeProjectsIn(organizationId, db('projects as p')));
  }

  /** Active projects on which the user holds any grant (all grants are READ or higher). */
  projectsOfUser(db: Executor, organizationId: string, userId: string): Promise<ExplorerProjectRecord[]> {
    // Driven from the caller's grants, then projects by primary key: the cost follows the
    // caller's grants, not the organization's project count.
    const granted = grantsOfUser(db, organizationId, userId).distinct('g.project_id as project_id');
    const from = db.from(granted.as('mine')).join('projects as p', 'p.id', 'mine.project_id');
    return withBindings(db, organizationId, activeProjectsIn(organizationId, from));
  }
}

/** The organization's active projects among `from` (aliased `p`). */
function activeProjectsIn(organizationId: string, from: Knex.QueryBuilder): Knex.QueryBuilder {
  return from
    .where('p.organization_id', organizationId)
    .whereNull('p.archived_at')
    .select(PROJECT_COLUMNS.map((column) => `p.${column}`));
}

/**
 * The projects `query` selects, each with its live binding. The organization's live bindings are
 * read apart, in one range of their index, and matched here: an organization has far fewer
 * bindings than projects, and a join would probe the bindings once per project.
 */
async function withBindings(
  db: Executor,
  organizationId: string,
  query: Knex.QueryBuilder,
): Promise<ExplorerProjectRecord[]> {
  const [projects, bindings] = await Promise.all([
    jsonRows<ProjectRow>(db, query, PROJECT_COLUMNS),
    db('project_bindings')
      .where({ organization_id: organizationId })
      .whereNull('archived_at')
      .select<{ project_id: string; chat_id: string; created_at: string }[]>('project_id', 'chat_id', 'created_at'),
  ]);
  const bindingOf = new Map(bindings.map((b) => [b.project_id, b]));
  return projects.map((project) => {
    const binding = bindingOf.get(project.id);
    return { ...project, binding_chat_id: binding?.chat_id ?? null, binding_created_at: binding?.created_at ?? null };
  });
}
