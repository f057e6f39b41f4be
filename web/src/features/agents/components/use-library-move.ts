import { useOrg } from '../../../lib/authorization';
import type { TreeEntry } from '../../../lib/folder-tree';
import { usePutAgentRole } from '../api/put-agent-role';
import { useUpdateAgentSkill } from '../api/update-agent-skill';
import { useUpdateLibraryFolder } from '../api/update-library-folder';
import type { LibraryFolder, LibraryLeaf } from './library-tree';
import { roleBody } from './role-order';

/**
 * Moves a folder (`parentId`), a role (`libraryFolderId` in its full PUT, keeping the rest) or a
 * skill (`libraryFolderId` by PATCH); a refusal is thrown for the dialog to show.
 */
export function useLibraryMove() {
  const { org } = useOrg();
  const orgSlug = org.slug;
  const updateFolder = useUpdateLibraryFolder();
  const putRole = usePutAgentRole();
  const updateSkill = useUpdateAgentSkill();
  return (entry: TreeEntry<LibraryFolder, LibraryLeaf>, folderId: string | null): Promise<unknown> => {
    if (entry.kind === 'folder')
      return updateFolder.mutateAsync({
        params: { path: { orgSlug, folderId: entry.folder.id } },
        body: { parentId: folderId },
      });
    const { leaf } = entry;
    if (leaf.kind === 'role')
      return putRole.mutateAsync({
        params: { path: { orgSlug, roleId: leaf.role.roleId } },
        body: roleBody(leaf.role, { libraryFolderId: folderId }),
      });
    return updateSkill.mutateAsync({
      params: { path: { orgSlug, name: leaf.skill.name } },
      body: { libraryFolderId: folderId },
    });
  };
}
