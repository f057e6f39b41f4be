import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/unit-of-work.js';

export interface FolderRecord {
  id: string;
  organization_id: string;
  parent_id: string | null;
  name: string;
  sort_key: string;
  created_at: string;
  archived_at: string | null;
}

export interface FolderWithCounts extends FolderRecord {
  project_count: number | string;
  child_folder_count: number | string;
}

/** The folder tree of each organization. */
export class FolderStore {
  async findActive(db: Executor, organizationId: string, folderId: string): Promise<FolderRecord | undefined> {
    return db<FolderRecord>('folders').where({ id: folderId, organization_id: organizationId }).whereNull('archived_at').first();
  }

  async countActive(trx: Executor, organizationId: string): Promise<number> {
    const row = await trx('folders')
      .where({ organization_id: organizationId })
      .whereNull('archived_at')
      .count<{ n: number | string }[]>({ n: '*' })
      .first();
    return Number(row?.n ?? 0);
  }

  /** Active folders with their active projects and child folders counted, in one statement. */
  async listActiveWithCounts(db: Executor, organizationId: string): Promise<FolderWithCounts[]> {
    const projectCounts = db('projects')
      .where('organization_id', organizationId)
      .whereNull('archived_at')
      .whereNotNull('folder_id')
      .groupBy('folder_id')
      .select('folder_id', db.raw('count(*) as n'));
    const childCounts = db('folders')
      .where('organization_id', organizationId)
      .whereNull('archived_at')
      .whereNotNull('parent_id')
      .groupBy('parent_id')
      .select('parent_id', db.raw('count(*) as n'));
    return db('folders as f')
      .leftJoin(projectCounts.as('pc'), 'pc.folder_id', 'f.id')
      .leftJoin(childCounts.as('cc'), 'cc.parent_id', 'f.id')
      .where('f.organization_id', organizationId)
      .whereNull('f.archived_at')
      .select('f.*', db.raw('coalesce(pc.n, 0) as project_count'), db.raw('coalesce(cc.n, 0) as child_folder_count'));
  }

  /** Sort keys of the active folders under a parent (null: the root). */
  async siblingSortKeys(db: Executor, organizationId: string, parentId: string | null): Promise<string[]> {
    const rows = await db('folders')
      .where({ organization_id: organizationId, parent_id: parentId })
      .whereNull('archived_at')
      .select<{ sort_key: string }[]>('sort_key');
    return rows.map((r) => r.sort_key);
  }

  /** id → parent id of every folder of the organization, archived ones included. */
  async parentMap(db: Executor, organizationId: string): Promise<Map<string, string | null>> {
    const rows = await db('folders').where({ organization_id: organizationId }).select<{ id: string; parent_id: string | null }[]>('id', 'parent_id');
    return new Map(rows.map((r) => [r.id, r.parent_id]));
  }

  async insert(trx: Executor, input: { organizationId: string; parentId: string | null; name: string; sortKey: string }, at: string): Promise<FolderRecord> {
    const row: FolderRecord = {
      id: randomUUID(),
      organization_id: input.organizationId,
      parent_id: input.parentId,
      name: input.name,
      sort_key: input.sortKey,
      created_at: at,
      archived_at: null,
    };
    await trx('folders').insert(row);
    return row;
  }

  async update(trx: Executor, folderId: string, changes: Partial<Pick<FolderRecord, 'name' | 'sort_key' | 'parent_id'>>): Promise<void> {
    if (Object.keys(changes).length) await trx('folders').where({ id: folderId }).update(changes);
  }

  /** Whether the folder still holds an active folder or project. */
  async hasActiveContent(db: Executor, folderId: string): Promise<boolean> {
    const child = await db('folders').where({ parent_id: folderId }).whereNull('archived_at').first('id');
    if (child) return true;
    const project = await db('projects').where({ folder_id: folderId }).whereNull('archived_at').first('id');
    return project !== undefined;
  }

  async archive(trx: Executor, folderId: string, at: string): Promise<void> {
    await trx('folders').where({ id: folderId }).update({ archived_at: at });
  }
}
