import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { DialogError, useDialogAction } from '../../../components/dialog-action';
import { folderOptions, folderPath, type Library, ROOT, subtreeIds } from './library-tree';

export type LibraryItem = { kind: 'folder' | 'role' | 'skill'; id: string; name: string; folderId: string | null };

/** "Move to…" in the agent library: a folder (under another), a role or a skill (into a folder). */
export function LibraryMoveDialog({
  lib,
  item,
  onClose,
  onMove,
}: {
  lib: Library;
  item: LibraryItem | null;
  onClose: () => void;
  onMove: (item: LibraryItem, folderId: string | null) => Promise<unknown>;
}) {
  const opened = item !== null;
  const [target, setTarget] = useState<string | null>(null);
  const { pending, error, run } = useDialogAction(opened, onClose);
  useEffect(() => {
    if (opened) setTarget(null);
  }, [opened]);
  const options = useMemo(() => {
    if (!item) return [];
    const excluded = item.kind === 'folder' ? subtreeIds(lib, item.id) : new Set<string>();
    return folderOptions(lib, excluded).filter((o) => o.value !== (item.folderId ?? ROOT));
  }, [lib, item]);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!item || !target) return;
    run(() => onMove(item, target === ROOT ? null : target));
  };
  return (
    <Modal opened={opened} onClose={onClose} title={item ? `Move ${item.name}` : 'Move'} centered>
      <form onSubmit={submit}>
        <Stack>
          {item && <Text size="sm">Now in: {folderPath(lib, item.folderId)}</Text>}
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
