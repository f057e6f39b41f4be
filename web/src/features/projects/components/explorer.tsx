import { plural } from '../../../lib/units';
import { Anchor, Badge, Box, Text } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { FolderExplorer, type FolderTreeOps } from '../../../components/folder-explorer/folder-explorer';
import { FileIcon } from '../../../components/icons';
import { QueryError } from '../../../components/query-error';
import { useOrg } from '../../../lib/authorization';
import { useArchiveFolder } from '../api/archive-folder';
import { useArchiveProject } from '../api/archive-project';
import { useCreateFolder } from '../api/create-folder';
import { useCreateProject } from '../api/create-project';
import { useExplorer } from '../../../lib/queries/get-explorer';
import { useMoveProject } from '../api/move-project';
import { useRenameProject } from '../api/rename-project';
import { useUpdateFolder } from '../api/update-folder';
import { buildProjectTree, type Folder, type Project, PROJECTS_TOP_LEVEL } from '../../../lib/project-tree';

/** The folder explorer's changes, through the folder and project endpoints. */
function useProjectTreeOps(orgSlug: string): FolderTreeOps<Folder, Project> {
  const createFolder = useCreateFolder();
  const createProject = useCreateProject();
  const updateFolder = useUpdateFolder();
  const archiveFolder = useArchiveFolder();
  const renameProject = useRenameProject();
  const moveProject = useMoveProject();
  const archiveProject = useArchiveProject();
  const folder = (f: Folder) => ({ params: { path: { orgSlug, folderId: f.id } } });
  const project = (p: Project) => ({ params: { path: { orgSlug, projectId: p.id } } });
  return {
    createFolder: (name, parentId) =>
      createFolder.mutateAsync({ params: { path: { orgSlug } }, body: { name, ...(parentId ? { parentId } : {}) } }),
    renameFolder: (f, name) => updateFolder.mutateAsync({ ...folder(f), body: { name } }),
    reorderFolder: (f, sortKey) => updateFolder.mutateAsync({ ...folder(f), body: { sortKey } }),
    move: (entry, folderId) =>
      entry.kind === 'folder'
        ? updateFolder.mutateAsync({ ...folder(entry.folder), body: { parentId: folderId } })
        : moveProject.mutateAsync({ ...project(entry.leaf), body: { folderId } }),
    archiveFolder: {
      label: 'Archive',
      confirmLabel: 'Archive',
      message: () =>
        'The folder leaves the explorer. Only an empty folder can be archived: move or archive what it holds first.',
      done: (name) => `Archived ${name}`,
      run: (f) => archiveFolder.mutateAsync(folder(f)),
    },
    renameLeaf: (p, name) => renameProject.mutateAsync({ ...project(p), body: { name } }),
    archiveLeaf: {
      confirmLabel: 'Archive',
      message: () => 'The project leaves the explorer and My projects; its page stays readable.',
      done: (name) => `Archived ${name}`,
      run: (p) => archiveProject.mutateAsync(project(p)),
    },
    createLeaf: {
      noun: 'project',
      run: (name, folderId) =>
        createProject.mutateAsync({ params: { path: { orgSlug } }, body: { name, ...(folderId ? { folderId } : {}) } }),
    },
  };
}

/**
 * The organization's folder tree with its projects, 20,000 of them as fast as ten. Moves work by
 * drag and drop onto a folder (or the top-level zone) and by "Move to…".
 */
export function Explorer() {
  const { org } = useOrg();
  const projectLink = (p: Project) => `/o/${encodeURIComponent(org.slug)}/projects/${encodeURIComponent(p.id)}`;
  const explorer = useExplorer(org.slug);
  const tree = useMemo(() => buildProjectTree(explorer.data), [explorer.data]);
  const ops = useProjectTreeOps(org.slug);
  if (explorer.isError) return <QueryError error={explorer.error} />;
  return (
    <FolderExplorer
      tree={tree}
      ops={ops}
      pending={explorer.isPending}
      summary={(matches) =>
        `${tree.folders.size} folders, ${tree.allLeaves.length} projects` +
        `${matches !== null ? ` · ${matches} match` : ''}. ` +
        'Drag a row onto a folder to move it, or use its “Move to…” action.'
      }
      empty="No folders or projects yet."
      listLabel="Folders and projects"
      rootLabel={PROJECTS_TOP_LEVEL}
      searchLabel="Search folders and projects"
      dragToMove
      folderDetail={(f) => `${plural(f.childFolderCount, 'folder')} · ${plural(f.projectCount, 'project')}`}
      leaf={{
        testId: (p) => `row-project-${p.name}`,
        render: (p, where) => (
          <>
            <FileIcon />
            <Box miw={0} style={{ flex: 1 }}>
              <Text size="sm" truncate>
                <Anchor component={Link} to={projectLink(p)}>
                  {p.name}
                </Anchor>
                {where}
              </Text>
            </Box>
            {p.binding && (
              <Badge variant="default" size="sm">
                chat
              </Badge>
            )}
          </>
        ),
        actions: (p) => [
          { label: 'Open', to: projectLink(p) },
          { label: 'Rename', dialog: 'rename' },
          { label: 'Move to…', dialog: 'move' },
          { label: 'Archive', dialog: 'archive' },
        ],
      }}
    />
  );
}
