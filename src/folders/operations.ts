import type { Services } from '../app/services.js';
import type { OperationModule } from '../http/operation-table.js';
import { toFolderRow } from './mapper.js';

/** Creating, changing and archiving folders. */
export function folderOperations({ folders }: Services): OperationModule {
  return {
    createFolder: {
      rule: 'orgAdmin',
      status: 201,
      handle: async ({ access, body }) => toFolderRow(await folders.create(access.organization.id, body)),
    },

    updateFolder: {
      rule: 'orgAdmin',
      handle: async ({ access, params, body }) => toFolderRow(await folders.update(access.organization.id, params.folderId, body)),
    },

    archiveFolder: {
      rule: 'orgAdmin',
      async handle({ access, params }) {
        await folders.archive(access.organization.id, params.folderId);
        return { archived: true, folderId: params.folderId };
      },
    },
  };
}
