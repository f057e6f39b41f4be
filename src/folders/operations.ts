import type { FolderService } from './service.js';
import { folderTreeOperations } from '../folder-tree/operations.js';
import type { OperationModule } from '../http/operation-table.js';

/** Creating, changing and archiving project folders. */
export function folderOperations(folders: FolderService) {
  return folderTreeOperations(folders, {
    create: 'createFolder',
    update: 'updateFolder',
    archive: 'archiveFolder',
  }) satisfies OperationModule;
}
