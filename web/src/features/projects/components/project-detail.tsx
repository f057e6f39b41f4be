import { formatDate, formatDateTime } from '../../../lib/format';
import { Anchor, Badge, Button, Code, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmAction } from '../../../components/confirm-action';
import { TreeMoveDialog } from '../../../components/folder-explorer/tree-move-dialog';
import { NameDialog } from '../../../components/name-dialog';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { folderPath } from '../../../lib/folder-tree';
import { notifySuccess } from '../../../lib/notify';
import { useArchiveBinding } from '../api/archive-binding';
import { useArchiveProject } from '../api/archive-project';
import { useExplorer } from '../../../lib/queries/get-explorer';
import { useMoveProject } from '../api/move-project';
import { useRenameProject } from '../api/rename-project';
import { buildProjectTree, PROJECTS_TOP_LEVEL } from '../../../lib/project-tree';

type Project = Schemas['ProjectDetail'];

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

/** The full folder path needs the tree, which only org admins can read; others see the folder's name. */
function useFolderPath(project: Project, isAdmin: boolean) {
  const { org } = useOrg();
  const explorer = useExplorer(org.slug, isAdmin);
  const tree = useMemo(() => buildProjectTree(explorer.data), [explorer.data]);
  if (!project.folder) return { path: PROJECTS_TOP_LEVEL, tree };
  if (isAdmin && explorer.data && tree.folders.has(project.folder.id))
    return { path: folderPath(tree, project.folder.id), tree };
  return { path: project.folder.name, tree };
}

export function ProjectDetail({ project }: { project: Project }) {
  const { org } = useOrg();
  const navigate = useNavigate();
  const isAdmin = project.actorIsOrgAdmin ?? false;
  const { path, tree } = useFolderPath(project, isAdmin);
  const [renaming, rename] = useDisclosure(false);
  const [moving, moveDialog] = useDisclosure(false);
  const renameProject = useRenameProject();
  const moveProject = useMoveProject();
  const archiveProject = useArchiveProject();
  const archiveBinding = useArchiveBinding();
  const ids = { params: { path: { orgSlug: org.slug, projectId: project.id } } };
  const archived = project.archivedAt !== null;
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Group gap="xs">
          <Title order={2} size="h4">
            Details
          </Title>
          {archived && <Badge color="gray">Archived</Badge>}
        </Group>
        {isAdmin ? (
          <Group gap="xs">
            <Button variant="default" size="xs" onClick={rename.open} disabled={archived}>
              Rename
            </Button>
            <Button variant="default" size="xs" onClick={moveDialog.open} disabled={archived}>
              Move to…
            </Button>
            <ConfirmAction
              label="Archive project"
              title={`Archive ${project.name}?`}
              message="The project leaves the explorer and My projects; this page stays readable."
              confirmLabel="Archive"
              disabled={archived}
              onConfirm={() => archiveProject.mutateAsync(ids).then(() => notifySuccess(`Archived ${project.name}`))}
            />
          </Group>
        ) : (
          <Text size="xs" c="dimmed">
            Renaming, moving and archiving are for org admins.
          </Text>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Field label="Folder">
          <Text size="sm">{path}</Text>
        </Field>
        <Field label="Created by">
          <Text size="sm">
            {project.createdBy ? `${project.createdBy.displayName} (${project.createdBy.imOpenId})` : 'unknown'}
          </Text>
        </Field>
        <Field label="Created">
          <Text size="sm">{formatDateTime(project.createdAt)}</Text>
        </Field>
        {project.workspaceDir !== null && (
          <Field label="Workspace directory">
            <Code style={{ wordBreak: 'break-all' }}>{project.workspaceDir}</Code>
          </Field>
        )}
        <Field label="Chat binding">
          {project.binding ? (
            <Group gap="xs" wrap="wrap">
              <Text size="sm">
                <Code>{project.binding.chatId}</Code> since {formatDate(project.binding.createdAt)}
              </Text>
              {isAdmin && (
                <ConfirmAction
                  label="Archive binding"
                  title="Archive the chat binding?"
                  message={
                    `Chat ${project.binding.chatId} stops being bound to ${project.name}. ` +
                    'An operator can bind a chat again with hub project bind.'
                  }
                  confirmLabel="Archive binding"
                  onConfirm={() => archiveBinding.mutateAsync(ids).then(() => notifySuccess('Chat binding archived'))}
                />
              )}
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              No chat bound{isAdmin ? ' (an operator binds one with hub project bind)' : ''}.
            </Text>
          )}
        </Field>
        <Field label="Project id">
          <Code>{project.id}</Code>
        </Field>
      </SimpleGrid>
      <NameDialog
        opened={renaming}
        title={`Rename ${project.name}`}
        label="New name"
        initial={project.name}
        submitLabel="Rename"
        onClose={rename.close}
        onSubmit={(name) =>
          renameProject.mutateAsync({ ...ids, body: { name } }).then(() => notifySuccess(`Renamed to ${name}`))
        }
      />
      <TreeMoveDialog
        tree={tree}
        rootLabel={PROJECTS_TOP_LEVEL}
        subject={moving ? { name: project.name, parentId: project.folderId } : null}
        onClose={moveDialog.close}
        onMove={(folderId) =>
          moveProject.mutateAsync({ ...ids, body: { folderId } }).then(() => notifySuccess(`Moved ${project.name}`))
        }
      />
      {archived && isAdmin && (
        <Anchor
          size="sm"
          mt="sm"
          onClick={() => navigate(`/o/${encodeURIComponent(org.slug)}/projects`)}
          component="button"
        >
          Back to the explorer
        </Anchor>
      )}
    </Paper>
  );
}
