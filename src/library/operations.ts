import type { LibraryService } from './service.js';
import { folderTreeOperations } from '../folder-tree/operations.js';
import type { OperationModule } from '../http/operation-table.js';
import { libraryFolderProjection } from './projection.js';

const folders = libraryFolderProjection;

/**
 * The agent library's folder tree: read, then create, rename/reorder/move and archive like project folders. Org admins
 * only.
 */
export function libraryOperations(library: LibraryService) {
  return {
    getAgentLibrary: {
      rule: 'orgAdmin',
      handle: async ({ access }) => ({
        folders: folders.order.sorted((await library.list(access.organization.id)).map(folders.toApi)),
      }),
    },
    ...folderTreeOperations(library, {
      create: 'createAgentLibraryFolder',
      update: 'updateAgentLibraryFolder',
      archive: 'archiveAgentLibraryFolder',
    }),
  } satisfies OperationModule;
}
