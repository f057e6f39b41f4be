import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Executor } from '../db/unit-of-work.js';
import { countLiveRows } from '../db/count-rows.js';

/** A row of a folder tree's table: the project folders (`folders`) or the agent library (`library_folders`). */
export interface FolderRecord {
  id: string;
  organization_id: string;
  parent_id: string | null;
  name: string;
  sort_key: string;
  created_at: string;
  archived_at: string | null;
}

export type FolderChangeColumns = Partial<Pick<FolderRecord, 'name' | 'sort_key' | 'parent_id'>>;

/**
 * The SQL of one organization-scoped folder tree, on its own table. Every tree has the same
 * columns; what a folder may hold differs and is asked by the tree's own store.
 */
export class FolderTreeStore {
  constructor(readonly table: string) {}

  async findActive(db: Executor, organizationId: string, folderId: string): Promise<FolderRecord | undefined> {
    return db<FolderRecord>(this.table)
      .where({ id: folderId, organization_id: organizationId })
      .whereNull('archived_at')
      .first();
  }

  async countActive(db: Executor, organizationId: string): Promise<number> {
    return countLiveRows(db, this.table, 'archived_at', organizationId);
  }

  /** Sort keys of the active folders under a parent (null: the root). */
  async siblingSortKeys(db: Executor, organizationId: string, parentId: string | null): Promise<string[]> {
    const rows = await db(this.table)
      .where({ organization_id: organizationId, parent_id: parentId })
      .whereNull('archived_at')
      .select<{ sort_key: string }[]>('sort_key');
    return rows.map((r) => r.sort_key);
  }

  /** Whether the organization has this folder, archived or not. */
  async exists(db: Executor, organizationId: string, folderId: string): Promise<boolean> {
    return (await db(this.table).where({ id: folderId, organization_id: organizationId }).first('id')) !== undefined;
  }

  /**
   * The ids of a folder and of every folder below it, archived ones included, as a subquery: one
   * recursive walk down `(organization_id, parent_id)`, inside the statement that uses it. Empty
   * when the organization has no such folder.
   */
  subtreeIds(db: Executor, organizationId: string, folderId: string): Knex.QueryBuilder {
    return db
      .withRecursive('subtree', ['id'], (walk) => {
        walk
          .select('id')
          .from(this.table)
          .where({ id: folderId, organization_id: organizationId })
          .unionAll((below) => {
            below
              .select('f.id')
              .from(`${this.table} as f`)
              .join('subtree', 'f.parent_id', 'subtree.id')
              .where('f.organization_id', organizationId);
          });
      })
      .select('id')
      .from('subtree');
  }

  /** id → parent id of every folder of the organization, archived ones included. */
  async parentMap(db: Executor, organizationId: string): Promise<Map<string, string | null>> {
    const rows = await db(this.table)
      .where({ organization_id: organizationId })
      .select<{ id: string; parent_id: string | null }[]>('id', 'parent_id');
    return new Map(rows.map((r) => [r.id, r.parent_id]));
  }

  async insert(
    trx: Executor,
    input: { organizationId: string; parentId: string | null; name: string; sortKey: string },
    at: string,
  ): Promise<FolderRecord> {
    const row: FolderRecord = {
      id: randomUUID(),
      organization_id: input.organizationId,
      parent_id: input.parentId,
      name: input.name,
      sort_key: input.sortKey,
      created_at: at,
      archived_at: null,
    };
    await trx(this.table).insert(row);
    return row;
  }

  async update(trx: Executor, folderId: string, changes: FolderChangeColumns): Promise<void> {
    if (Object.keys(changes).length) await trx(this.table).where({ id: folderId }).update(changes);
  }

  /**
   * Whether the folder still holds an active child folder. Asked within its organization, so that
   * the (organization_id, parent_id) index finds the children: by `parent_id` alone SQLite read
   * the folders of every organization.
   */
  async hasActiveChild(db: Executor, organizationId: string, folderId: string): Promise<boolean> {
    const child = await db(this.table)
      .where({ organization_id: organizationId, parent_id: folderId })
      .whereNull('archived_at')
      .first('id');
    return child !== undefined;
  }

  async archive(trx: Executor, folderId: string, at: string): Promise<void> {
    await trx(this.table).where({ id: folderId }).update({ archived_at: at });
  }
}
