import type { Knex } from 'knex';
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

/** The read side of the folder tree: one set-based query per list, never one per row. */
export class ExplorerStore {
  /** Every active project of the organization with its live chat binding. */
  activeProjects(db: Executor, organizationId: string): Promise<ExplorerProjectRecord[]> {
    return projectsQuery(organizationId, db('projects as p'));
  }

  /** Active projects on which the user holds any grant (all grants are READ or higher). */
  projectsOfUser(db: Executor, organizationId: string, userId: string): Promise<ExplorerProjectRecord[]> {
    // Driven from the caller's grants, then projects by primary key: the cost follows the
    // caller's grants, not the organization's project count.
    const granted = grantsOfUser(db, organizationId, userId).distinct('g.project_id as project_id');
    return projectsQuery(organizationId, db.from(granted.as('mine')).join('projects as p', 'p.id', 'mine.project_id'));
  }
}

/** The organization's active projects among `from` (aliased `p`), each with its live binding. */
function projectsQuery(
  organizationId: string,
  from: Knex.QueryBuilder,
): Knex.QueryBuilder<ExplorerProjectRecord, ExplorerProjectRecord[]> {
  return from
    .leftJoin('project_bindings as b', (on) => on.on('b.project_id', 'p.id').andOnNull('b.archived_at'))
    .where('p.organization_id', organizationId)
    .whereNull('p.archived_at')
    .select(
      'p.id',
      'p.name',
      'p.folder_id',
      'p.created_at',
      'b.chat_id as binding_chat_id',
      'b.created_at as binding_created_at',
    ) as never;
}
