import { plural } from '../../../lib/units';
import { Badge, Box, Text } from '@mantine/core';
import { useMemo } from 'react';
import { FolderExplorer, type FolderTreeOps } from '../../../components/folder-explorer/folder-explorer';
import { QueryError } from '../../../components/query-error';
import { useOrg } from '../../../lib/authorization';
import { useArchiveLibraryFolder } from '../api/archive-library-folder';
import { useCreateLibraryFolder } from '../api/create-library-folder';
import { useAgentLibrary } from '../api/get-agent-library';
import { useAgentRoles } from '../api/get-agent-roles';
import { useAgentSkills } from '../api/get-agent-skills';
import { useUpdateLibraryFolder } from '../api/update-library-folder';
import { buildLibrary, type Library, LIBRARY_ROOT, type LibraryFolder, type LibraryLeaf } from './library-tree';
import { useLibraryMove } from './use-library-move';

/** The library's changes: its folders here; roles and skills only move (the rest is on their own pages). */
function useLibraryTreeOps(orgSlug: string, lib: Library): FolderTreeOps<LibraryFolder, LibraryLeaf> {
  const createFolder = useCreateLibraryFolder();
  const updateFolder = useUpdateLibraryFolder();
  const archiveFolder = useArchiveLibraryFolder();
  const move = useLibraryMove();
  const folder = (f: LibraryFolder) => ({ params: { path: { orgSlug, folderId: f.id } } });
  return {
    createFolder: (name, parentId) =>
      createFolder.mutateAsync({ params: { path: { orgSlug } }, body: { name, ...(parentId ? { parentId } : {}) } }),
    renameFolder: (f, name) => updateFolder.mutateAsync({ ...folder(f), body: { name } }),
    reorderFolder: (f, sortKey) => updateFolder.mutateAsync({ ...folder(f), body: { sortKey } }),
    move,
    archiveFolder: {
      label: 'Archive…',
      confirmLabel: 'Archive folder',
      message: (f) => {
        const holds = [
          plural(lib.childFolders.get(f.id)?.length ?? 0, 'folder'),
          plural(f.roleCount, 'role'),
          plural(f.skillCount, 'skill'),
        ].join(', ');
        return (
          'The folder leaves the library. Only an empty folder can be archived (disabled roles and skills ' +
          `count too): it holds ${holds}.`
        );
      },
      done: (name) => `Archived folder ${name}`,
      run: (f) => archiveFolder.mutateAsync(folder(f)),
    },
  };
}

/**
 * The agent library: folders that group the organization's roles and skills, separate from the
 * project folders and under their rules (no cycles, archive only when empty). Roles and skills
 * move between folders here or from their own pages.
 */
export function LibraryExplorer() {
  const { org } = useOrg();
  const orgSlug = org.slug;
  const pages = `/o/${encodeURIComponent(orgSlug)}/agents`;
  const library = useAgentLibrary(orgSlug);
  const roles = useAgentRoles(orgSlug);
  const skills = useAgentSkills(orgSlug);
  const lib = useMemo(
    () => buildLibrary(library.data?.folders, roles.data?.roles, skills.data?.skills),
    [library.data, roles.data, skills.data],
  );
  const ops = useLibraryTreeOps(orgSlug, lib);
  const error = library.error ?? roles.error ?? skills.error;
  if (error) return <QueryError error={error} />;
  return (
    <FolderExplorer
      tree={lib}
      dragToMove
      ops={ops}
      pending={library.isPending || roles.isPending || skills.isPending}
      summary={() =>
        `${plural(lib.folders.size, 'folder')}, ${plural(roles.data?.roles.length ?? 0, 'role')}, ` +
        `${plural(skills.data?.skills.length ?? 0, 'skill')}. ` +
        'Folders group roles and skills for people; sessions and bindings do not depend on them.'
      }
      empty="The library is empty: create a folder, a role or a skill."
      listLabel="Library folders, roles and skills"
      rootLabel={LIBRARY_ROOT}
      kindOf={(entry) => (entry.kind === 'folder' ? 'folder' : entry.leaf.kind)}
      folderDetail={(f) =>
        `${plural(lib.childFolders.get(f.id)?.length ?? 0, 'folder')} · ${plural(f.roleCount, 'role')} · ` +
        plural(f.skillCount, 'skill')
      }
      leaf={{
        testId: (l) => (l.kind === 'role' ? `row-role-${l.role.roleId}` : `row-skill-${l.skill.name}`),
        render: (l) => <LeafRow leaf={l} />,
        actions: (l) => [
          { label: 'Move to folder…', dialog: 'move' },
          l.kind === 'role'
            ? { label: 'Open Agent roles', to: `${pages}/roles` }
            : { label: 'Open Agent skills', to: `${pages}/skills` },
        ],
      }}
    />
  );
}

/** A role or a skill: its kind, its name with its id or version, and whether it is disabled. */
function LeafRow({ leaf }: { leaf: LibraryLeaf }) {
  const isRole = leaf.kind === 'role';
  const item = isRole ? leaf.role : leaf.skill;
  return (
    <>
      <Badge size="sm" variant={isRole ? 'light' : 'outline'} w={52} style={{ flexShrink: 0 }}>
        {leaf.kind}
      </Badge>
      <Box miw={0} style={{ flex: 1 }}>
        <Text size="sm" truncate>
          {isRole ? leaf.role.label : leaf.skill.name}
          <Text span size="xs" c="dimmed" ff={isRole ? 'monospace' : undefined}>
            {'  '}
            {isRole ? leaf.role.roleId : leaf.skill.version}
          </Text>
        </Text>
      </Box>
      {item.disabledAt && (
        <Badge size="sm" color="gray" variant="outline">
          disabled
        </Badge>
      )}
    </>
  );
}
