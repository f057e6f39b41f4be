import type { Services } from '../app/services.js';
import { folderTreeOperations } from '../folder-tree/operations.js';
import type { OperationModule } from '../http/operation-table.js';

/** Creating, changing and archiving project folders. */
export function folderOperations({ folders }: Services) {
  return folderTreeOperations(folders, {
    create: 'createFolder',
    update: 'updateFolder',
    archive: 'archiveFolder',
  }) satisfies OperationModule;
}
