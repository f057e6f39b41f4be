import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { DialogError, useDialogAction } from '../../../components/dialog-action';
import { folderPath, subtreeIds, type Tree } from './tree-model';

const ROOT = '__root__';

/** "Move to…": choose the destination folder (or the top level) by its path. */
export function MoveDialog({
  opened,
  tree,
  item,
  onClose,
  onMove,
}: {
  opened: boolean;
  tree: Tree;
  item: { kind: 'folder' | 'project'; id: string; name: string; parentId: string | null } | null;
  onClose: () => void;
  onMove: (folderId: string | null) => Promise<unknown>;
}) {
  const [target, setTarget] = useState<string | null>(null);
  const { pending, error, run } = useDialogAction(opened, onClose);
  useEffect(() => {
    if (opened) setTarget(null);
  }, [opened]);
  const options = useMemo(() => {
    if (!item) return [];
    const excluded = item.kind === 'folder' ? subtreeIds(tree, item.id) : new Set<string>();
    const folders = [...tree.folders.values()]
      .filter((f) => !excluded.has(f.id) && f.id !== item.parentId)
      .map((f) => ({ value: f.id, label: folderPath(tree, f.id) }))
      .sort((a, b) => a.label.localeCompare(b.label));
    return item.parentId === null ? folders : [{ value: ROOT, label: '/ (top level)' }, ...folders];
  }, [tree, item]);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!target) return;
    await run(() => onMove(target === ROOT ? null : target));
  };
  return (
    <Modal opened={opened} onClose={onClose} title={item ? `Move ${item.name}` : 'Move'} centered>
      <form onSubmit={submit}>
        <Stack>
          {item && <Text size="sm">Now in: {folderPath(tree, item.parentId)}</Text>}
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
