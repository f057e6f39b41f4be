import type { Services } from '../app/services.js';
import { folderTreeOperations } from '../folder-tree/operations.js';
import type { OperationModule } from '../http/operation-table.js';
import { toAgentLibrary } from './mapper.js';

/**
 * The agent library's folder tree: read, then create, rename/reorder/move and archive like project folders. Org admins
 * only.
 */
export function libraryOperations({ library }: Services) {
  return {
    getAgentLibrary: {
      rule: 'orgAdmin',
      handle: async ({ access }) => toAgentLibrary(await library.list(access.organization.id)),
    },
    ...folderTreeOperations(library, {
      create: 'createAgentLibraryFolder',
      update: 'updateAgentLibraryFolder',
      archive: 'archiveAgentLibraryFolder',
    }),
  } satisfies OperationModule;
}
