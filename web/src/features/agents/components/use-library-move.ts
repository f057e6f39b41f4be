import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { usePutAgentRole } from '../api/put-agent-role';
import { useUpdateAgentSkill } from '../api/update-agent-skill';
import { useUpdateLibraryFolder } from '../api/update-library-folder';
import type { LibraryItem } from './library-move-dialog';
import { folderPath, type Library, type Role } from './library-tree';
import { roleBody } from './role-order';

/**
 * Moves a folder (`parentId`), a role (`libraryFolderId` in its full PUT) or a skill
 * (`libraryFolderId` by PATCH) and says where it went; a refusal is thrown for the dialog to show.
 */
export function useLibraryMove(lib: Library, roles: readonly Role[]) {
  const { org } = useOrg();
  const orgSlug = org.slug;
  const updateFolder = useUpdateLibraryFolder();
  const putRole = usePutAgentRole();
  const updateSkill = useUpdateAgentSkill();
  return async (item: LibraryItem, folderId: string | null) => {
    if (item.kind === 'folder') {
      await updateFolder.mutateAsync({
        params: { path: { orgSlug, folderId: item.id } },
        body: { parentId: folderId },
      });
    } else if (item.kind === 'role') {
      const role = roles.find((r) => r.roleId === item.id);
      if (!role) throw new Error(`The role ${item.name} is no longer listed; reload the page.`);
      await putRole.mutateAsync({
        params: { path: { orgSlug, roleId: role.roleId } },
        body: roleBody(role, { libraryFolderId: folderId }),
      });
    } else {
      await updateSkill.mutateAsync({
        params: { path: { orgSlug, name: item.id } },
        body: { libraryFolderId: folderId },
      });
    }
    notifySuccess(`Moved ${item.name} to ${folderPath(lib, folderId)}`);
  };
}
