import { Modal, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import {
  type FolderTree,
  folderOptions,
  folderPath,
  subtreeIds,
  TOP_LEVEL,
  type TreeFolder,
} from '../../lib/folder-tree';
import { DialogFooter, useDialogAction } from '../dialog-action';
import { SelectField } from '../select-field';

/**
 * What is being moved: its name, the folder it is in (left out for several rows from anywhere),
 * and for a folder its id (its subtree is no destination).
 */
export type MoveSubject = { name: string; parentId?: string | null; folderId?: string };

/**
 * "Move to…" for anything in a folder tree: the destination is chosen by its path among the
 * tree's folders, leaving out where the subject already is and, for a folder, its own subtree.
 */
export function TreeMoveDialog({
  tree,
  rootLabel,
  subject,
  onClose,
  onMove,
}: {
  tree: FolderTree<TreeFolder, unknown>;
  /** How the top level reads among the destinations. */
  rootLabel: string;
  /** Null while nothing is being moved (the dialog is closed). */
  subject: MoveSubject | null;
  onClose: () => void;
  onMove: (folderId: string | null) => Promise<unknown>;
}) {
  const opened = subject !== null;
  const [target, setTarget] = useState<string | null>(null);
  const { pending, error, run } = useDialogAction(opened, onClose);
  useEffect(() => {
    if (opened) setTarget(null);
  }, [opened]);
  const options = useMemo(() => {
    if (!subject) return [];
    const excluded = subject.folderId ? subtreeIds(tree, subject.folderId) : new Set<string>();
    const options = folderOptions(tree, rootLabel, excluded);
    if (subject.parentId === undefined) return options;
    return options.filter((o) => o.value !== (subject.parentId ?? TOP_LEVEL));
  }, [tree, rootLabel, subject]);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!target) return;
    await run(() => onMove(target === TOP_LEVEL ? null : target));
  };
  return (
    <Modal opened={opened} onClose={onClose} title={subject ? `Move ${subject.name}` : 'Move'} centered>
      <form onSubmit={submit}>
        <Stack>
          {subject?.parentId !== undefined && <Text size="sm">Now in: {folderPath(tree, subject.parentId)}</Text>}
          <SelectField
            label="Destination folder"
            placeholder="Type to search folders"
            searchable
            limit={100}
            data={options}
            value={target}
            onChange={setTarget}
            nothingFoundMessage="No folder matches"
          />
          <DialogFooter
            label="Move here"
            pending={pending}
            disabled={!target}
            error={error}
            errorTitle="Not moved"
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
