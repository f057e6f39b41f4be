import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { DialogError, useDialogAction } from './dialog-action';

/** The option value that stands for the top level of a folder tree (no folder). */
export const TOP_LEVEL = '__root__';

/**
 * "Move to…" for anything that lives in a folder tree: the destination is chosen by its path
 * among `options` (the caller leaves out the current folder and, for a folder, its own subtree).
 */
export function FolderMoveDialog({
  opened,
  name,
  currentPath,
  options,
  onClose,
  onMove,
}: {
  opened: boolean;
  /** What is being moved; undefined while nothing is. */
  name: string | undefined;
  currentPath: string | undefined;
  options: { value: string; label: string }[];
  onClose: () => void;
  onMove: (folderId: string | null) => Promise<unknown>;
}) {
  const [target, setTarget] = useState<string | null>(null);
  const { pending, error, run } = useDialogAction(opened, onClose);
  useEffect(() => {
    if (opened) setTarget(null);
  }, [opened]);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!target) return;
    await run(() => onMove(target === TOP_LEVEL ? null : target));
  };
  return (
    <Modal opened={opened} onClose={onClose} title={name ? `Move ${name}` : 'Move'} centered>
      <form onSubmit={submit}>
        <Stack>
          {currentPath !== undefined && <Text size="sm">Now in: {currentPath}</Text>}
          <Select
            label="Destination folder"
            placeholder="Type to search folders"
            searchable
            limit={100}
            data={options}
            value={target}
            onChange={setTarget}
            nothingFoundMessage="No folder matches"
            comboboxProps={{ withinPortal: true }}
          />
          <DialogError error={error} title="Not moved" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={pending} disabled={!target}>
              Move here
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
