import type { Services } from '../app/services.js';
import { toFolderRow } from '../folders/mapper.js';
import type { OperationModule } from '../http/operation-table.js';
import { toAgentLibrary } from './mapper.js';

/** The agent library's folder tree: read, create, rename/reorder/move, archive. Org admins only. */
export function libraryOperations({ library }: Services): OperationModule {
  return {
    getAgentLibrary: {
      rule: 'orgAdmin',
      handle: async ({ access }) => toAgentLibrary(await library.list(access.organization.id)),
    },

    createAgentLibraryFolder: {
      rule: 'orgAdmin',
      status: 201,
      handle: async ({ access, body }) => toFolderRow(await library.create(access.organization.id, body)),
    },

    updateAgentLibraryFolder: {
      rule: 'orgAdmin',
      handle: async ({ access, params, body }) => toFolderRow(await library.update(access.organization.id, params.folderId, body)),
    },

    archiveAgentLibraryFolder: {
      rule: 'orgAdmin',
      async handle({ access, params }) {
        await library.archive(access.organization.id, params.folderId);
        return { archived: true, folderId: params.folderId };
      },
    },
  };
}
