import type { CapacityService } from '../capacity/service.js';
import type { Clock } from '../config/clock.js';
import { conflict, notFound } from '../errors/api-error.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { sortKeyAfter } from '../folder-tree/sort-key.js';
import type { FolderRecord, FolderStore } from './store.js';

export interface FolderChanges {
  name?: string | undefined;
  sortKey?: string | undefined;
  parentId?: string | null | undefined;
}

/** The folder tree: same-organization parents, no cycles, no archiving a folder with content. */
export class FolderService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly folders: FolderStore,
    private readonly clock: Clock,
    private readonly capacity: CapacityService,
  ) {}

  async create(organizationId: string, input: { name: string; parentId?: string | undefined; sortKey?: string | undefined }): Promise<FolderRecord> {
    const at = this.clock.now().toISOString();
    return this.uow.run(async (trx) => {
      const parentId = input.parentId ?? null;
      if (parentId !== null) await this.requireActive(organizationId, parentId, trx);
      await this.capacity.ensureRoom(trx, organizationId, 'folderCount', () => this.folders.countActive(trx, organizationId));
      const sortKey = input.sortKey ?? sortKeyAfter(await this.folders.siblingSortKeys(trx, organizationId, parentId));
      return this.folders.insert(trx, { organizationId, parentId, name: input.name, sortKey }, at);
    });
  }

  async update(organizationId: string, folderId: string, changes: FolderChanges): Promise<FolderRecord> {
    return this.uow.run(async (trx) => {
      const folder = await this.requireActive(organizationId, folderId, trx);
      if (changes.parentId !== undefined && changes.parentId !== null) {
        await this.requireActive(organizationId, changes.parentId, trx);
        if (await this.wouldCycle(trx, organizationId, folderId, changes.parentId)) {
          throw conflict('folder_cycle', 'A folder cannot move under itself or one of its descendants.');
        }
      }
      const update: Partial<Pick<FolderRecord, 'name' | 'sort_key' | 'parent_id'>> = {};
      if (changes.name !== undefined) update.name = changes.name;
      if (changes.sortKey !== undefined) update.sort_key = changes.sortKey;
      if (changes.parentId !== undefined) update.parent_id = changes.parentId;
      await this.folders.update(trx, folderId, update);
      return { ...folder, ...update };
    });
  }

  /** Archives an empty folder; nothing is archived by cascade. */
  async archive(organizationId: string, folderId: string): Promise<void> {
    const at = this.clock.now().toISOString();
    await this.uow.run(async (trx) => {
      await this.requireActive(organizationId, folderId, trx);
      if (await this.folders.hasActiveContent(trx, folderId)) {
        throw conflict('folder_not_empty', 'The folder still holds active folders or projects; move or archive them first.');
      }
      await this.folders.archive(trx, folderId, at);
    });
  }

  /**
   * The active folder of this organization, or 404 folder_not_found. Pass the transaction when
   * the check is part of one (a create or move that must not see the folder archived meanwhile).
   */
  async requireActive(organizationId: string, folderId: string, db: Executor = this.uow.executor): Promise<FolderRecord> {
    const folder = await this.folders.findActive(db, organizationId, folderId);
    if (!folder) throw notFound('folder_not_found', `No active folder ${folderId} in this organization.`);
    return folder;
  }

  private async wouldCycle(trx: Executor, organizationId: string, folderId: string, newParentId: string): Promise<boolean> {
    const parents = await this.folders.parentMap(trx, organizationId);
    // Walk up from the new parent; meeting the folder itself means it would become its own ancestor.
    const seen = new Set<string>();
    for (let at: string | null | undefined = newParentId; at; at = parents.get(at)) {
      if (at === folderId) return true;
      if (seen.has(at)) break;
      seen.add(at);
    }
    return false;
  }
}
