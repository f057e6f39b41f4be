import { folderProjection } from './projection.js';
import type { OperationSpec } from '../http/operation-table.js';
import type { FolderTree } from './tree.js';

/** The operations of one folder tree, by their operationIds in openapi.yaml. */
interface FolderTreeOperationIds {
  create: 'createFolder' | 'createAgentLibraryFolder';
  update: 'updateFolder' | 'updateAgentLibraryFolder';
  archive: 'archiveFolder' | 'archiveAgentLibraryFolder';
}

/** Exactly the tree's three operations, by their ids, so the operation table's completeness check sees them. */
type FolderTreeOperations<Ids extends FolderTreeOperationIds> = {
  [O in Ids['create'] | Ids['update'] | Ids['archive']]: OperationSpec<O>;
};

/**
 * Create, change and archive for a folder tree: the project folders and the agent library take
 * the same requests and give the same answers (`CreateFolderRequest`, `FolderRow`,
 * `FolderArchived`), so one set of handlers serves both, org admins only.
 */
export function folderTreeOperations<Ids extends FolderTreeOperationIds>(
  tree: FolderTree,
  ids: Ids,
): FolderTreeOperations<Ids> {
  const create: OperationSpec<'createFolder'> = {
    rule: 'orgAdmin',
    status: 201,
    handle: async ({ access, body }) => folderProjection.toApi(await tree.create(access.organization.id, body)),
  };
  const update: OperationSpec<'updateFolder'> = {
    rule: 'orgAdmin',
    handle: async ({ access, params, body }) =>
      folderProjection.toApi(await tree.update(access.organization.id, params.folderId, body)),
  };
  const archive: OperationSpec<'archiveFolder'> = {
    rule: 'orgAdmin',
    async handle({ access, params }) {
      await tree.archive(access.organization.id, params.folderId);
      return { archived: true, folderId: params.folderId };
    },
  };
  // The library's operations have exactly these request, parameter and answer types; the compiler
  // compares handler types by operationId, not by shape, so it takes this on trust.
  return { [ids.create]: create, [ids.update]: update, [ids.archive]: archive } as unknown as FolderTreeOperations<Ids>;
}
