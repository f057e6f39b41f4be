import { isDeepStrictEqual } from 'node:util';
import { recordChange } from '../audit/trail.js';
import type { CapacityService } from '../capacity/service.js';
import type { Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { conflict, notFound } from '../errors/api-error.js';
import { folderProjection } from './projection.js';
import { sortKeyAfter } from './sort-key.js';
import type { FolderChangeColumns, FolderRecord, FolderTreeStore } from './store.js';
import type { Schema } from '../api/types.js';

export type FolderInput = Schema<'CreateFolderRequest'>;

export type FolderChanges = Schema<'UpdateFolderRequest'>;

/** What differs between two folder trees: their table, what a folder holds, how that is named. */
export interface FolderTreeOptions {
  store: FolderTreeStore;
  /** Whether the folder holds anything besides child folders that keeps it from being archived. */
  holdsContent: (db: Executor, organizationId: string, folderId: string) => Promise<boolean>;
  /** What `folder_not_empty` says: "active folders or projects", "active folders, roles or skills". */
  contentName: string;
  /** What `folder_not_found` calls the folder: "folder", "agent library folder". */
  folderName: string;
  /** The audit log's target type of a folder of this tree: `folder`, `library_folder`. */
  auditTarget: string;
}

/**
 * The rules of an organization-scoped folder tree, one implementation for the project folders
 * and the agent library: a parent is an active folder of the same organization (404
 * `folder_not_found`), a folder never moves under itself or a descendant (409 `folder_cycle`),
 * a folder without a `sortKey` goes last among its siblings, only an empty folder is archived
 * (409 `folder_not_empty`, nothing by cascade), and creating counts toward `folderCount`, which
 * the trees share (the composition root counts both: src/app/services.ts).
 */
export class FolderTree {
  private readonly store: FolderTreeStore;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly capacity: CapacityService,
    private readonly options: FolderTreeOptions,
  ) {
    this.store = options.store;
  }

  async create(organizationId: string, input: FolderInput): Promise<FolderRecord> {
    const at = this.clock.now().toISOString();
    return this.uow.run(async (trx) => {
      const parentId = input.parentId ?? null;
      if (parentId !== null) await this.requireActive(organizationId, parentId, trx);
      await this.capacity.ensureRoom(trx, organizationId, 'folderCount');
      const sortKey = input.sortKey ?? sortKeyAfter(await this.store.siblingSortKeys(trx, organizationId, parentId));
      const created = await this.store.insert(trx, { organizationId, parentId, name: input.name, sortKey }, at);
      await this.recordFolderChange(trx, organizationId, created.id, null, created);
      return created;
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
      const update: FolderChangeColumns = {};
      if (changes.name !== undefined) update.name = changes.name;
      if (changes.sortKey !== undefined) update.sort_key = changes.sortKey;
      if (changes.parentId !== undefined) update.parent_id = changes.parentId;
      await this.store.update(trx, folderId, update);
      const changed = { ...folder, ...update };
      await this.recordFolderChange(trx, organizationId, folderId, folder, changed);
      return changed;
    });
  }

  /** Archives an empty folder; nothing is archived by cascade. */
  async archive(organizationId: string, folderId: string): Promise<void> {
    const at = this.clock.now().toISOString();
    await this.uow.run(async (trx) => {
      const folder = await this.requireActive(organizationId, folderId, trx);
      const holdsAnything =
        (await this.store.hasActiveChild(trx, organizationId, folderId)) ||
        (await this.options.holdsContent(trx, organizationId, folderId));
      if (holdsAnything) {
        throw conflict(
          'folder_not_empty',
          `The folder still holds ${this.options.contentName}; move or archive them first.`,
        );
      }
      await this.store.archive(trx, folderId, at);
      // An archived folder is gone from every answer of the API.
      await this.recordFolderChange(trx, organizationId, folderId, folder, null);
    });
  }

  /**
   * The active folder of this organization, or 404 folder_not_found. Pass the transaction when
   * the check is part of one (a create or move that must not see the folder archived meanwhile).
   */
  async requireActive(
    organizationId: string,
    folderId: string,
    db: Executor = this.uow.executor,
  ): Promise<FolderRecord> {
    const folder = await this.store.findActive(db, organizationId, folderId);
    if (!folder)
      throw notFound('folder_not_found', `No active ${this.options.folderName} ${folderId} in this organization.`);
    return folder;
  }

  /** The folder's audit event, as the API shows it (`FolderRow`); a change that changes nothing records none. */
  private async recordFolderChange(
    trx: Executor,
    organizationId: string,
    folderId: string,
    before: FolderRecord | null,
    after: FolderRecord | null,
  ): Promise<void> {
    const shown = { before: before && folderProjection.toApi(before), after: after && folderProjection.toApi(after) };
    if (isDeepStrictEqual(shown.before, shown.after)) return;
    const label = (after ?? before)?.name ?? null;
    await recordChange(trx, {
      organizationId,
      target: { type: this.options.auditTarget, id: folderId, label },
      ...shown,
    });
  }

  private async wouldCycle(
    trx: Executor,
    organizationId: string,
    folderId: string,
    newParentId: string,
  ): Promise<boolean> {
    const parents = await this.store.parentMap(trx, organizationId);
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
