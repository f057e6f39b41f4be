import type { Knex } from 'knex';
import type { Db } from '../db/connect.js';
import { grantsOfUser } from '../access/store.js';

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
  constructor(private readonly db: Db) {}

  /** Every active project of the organization with its live chat binding. */
  activeProjects(organizationId: string): Promise<ExplorerProjectRecord[]> {
    return this.projectsQuery(organizationId);
  }

  /** Active projects on which the user holds any grant (all grants are READ or higher). */
  projectsOfUser(organizationId: string, userId: string): Promise<ExplorerProjectRecord[]> {
    // Driven from the caller's grants, then projects by primary key: the cost follows the
    // caller's grants, not the organization's project count.
    const granted = grantsOfUser(this.db, organizationId, userId).distinct('g.project_id as project_id');
    return this.projectsQuery(organizationId, this.db.from(granted.as('mine')).join('projects as p', 'p.id', 'mine.project_id'));
  }

  private projectsQuery(
    organizationId: string,
    from: Knex.QueryBuilder = this.db('projects as p'),
  ): Knex.QueryBuilder<ExplorerProjectRecord, ExplorerProjectRecord[]> {
    return from
      .leftJoin('project_bindings as b', (on) => on.on('b.project_id', 'p.id').andOnNull('b.archived_at'))
      .where('p.organization_id', organizationId)
      .whereNull('p.archived_at')
      .select('p.id', 'p.name', 'p.folder_id', 'p.created_at', 'b.chat_id as binding_chat_id', 'b.created_at as binding_created_at') as never;
  }
}
