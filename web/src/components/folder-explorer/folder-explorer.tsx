import { Button, Group, Loader, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useIsMutating } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';
import { entryKey, entryName, type TreeFolder } from '../../lib/folder-tree';
import { BulkProgress, BulkSummary } from '../bulk-summary';
import { ScrollRegion } from '../scroll-region';
import { ExplorerDialogs } from './explorer-dialogs';
import { ROW_HEIGHT, TreeRow } from './tree-row';
import type { Dialog, FolderExplorerProps } from './types';
import { useTreeDrag } from './use-tree-drag';
import { useTreeKeyboard } from './use-tree-keyboard';
import { useTreeModel } from './use-tree-model';

export type { Archiving, FolderExplorerProps, FolderTreeOps, LeafAction } from './types';

/** Beyond this many folders "Expand all" would lay out more rows than a person can use. */
const EXPAND_ALL_LIMIT = 2000;

/**
 * A folder tree with its leaves: loaded once, only expanded folders contribute rows and only the
 * rows in view are rendered, so 20,000 leaves stay fast. Folders are created, renamed, moved,
 * reordered and archived here; what a leaf is, shows and offers comes from the caller. The state
 * is the tree model's (use-tree-model.ts), the keys the keyboard hook's, dragging the drag hook's.
 */
export function FolderExplorer<F extends TreeFolder, L>(props: FolderExplorerProps<F, L>) {
  const { tree, ops } = props;
  const model = useTreeModel(tree, ops);
  const { rows, needle, selected, bulk } = model;
  const drag = useTreeDrag(tree, model, props.dragToMove === true);
  const [dialog, setDialog] = useState<Dialog<F, L> | null>(null);
  const saving = useIsMutating() > 0;

  const scrollRef = useRef<HTMLElement>(null);
  const treeRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 15,
    getItemKey: (i) => entryKey(tree, rows[i]!),
  });
  const keyboard = useTreeKeyboard(tree, model, virtualizer, treeRef);

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Group wrap="wrap">
          <Button onClick={() => setDialog({ type: 'create-folder', parentId: null })}>New folder</Button>
          {ops.createLeaf && (
            <Button variant="default" onClick={() => setDialog({ type: 'create-leaf', folderId: null })}>
              New {ops.createLeaf.noun}
            </Button>
          )}
          <Button variant="default" onClick={model.expandAll} disabled={tree.folders.size > EXPAND_ALL_LIMIT}>
            Expand all
          </Button>
          <Button variant="default" onClick={model.collapseAll}>
            Collapse all
          </Button>
        </Group>
        <Group gap="xs">
          {saving && <Loader size="sm" aria-label="Saving" />}
          {props.searchLabel && (
            <TextInput
              aria-label={props.searchLabel}
              placeholder={props.searchLabel}
              value={model.search}
              onChange={(e) => model.setSearch(e.currentTarget.value)}
              w={260}
            />
          )}
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        {props.pending ? 'Loading…' : props.summary(needle ? rows.length : null)}
      </Text>
      {selected.size > 0 && (
        <Paper withBorder p="sm" role="region" aria-label="Selected rows">
          <Group wrap="wrap">
            <Text size="sm" fw={500}>
              {selected.size} selected
            </Text>
            <Button
              size="xs"
              onClick={() => setDialog({ type: 'move-selected' })}
              loading={bulk.progress !== null}
              disabled={bulk.progress !== null}
            >
              Move {selected.size} to…
            </Button>
            <Button size="xs" variant="subtle" onClick={model.clearSelection}>
              Clear selection
            </Button>
          </Group>
        </Paper>
      )}
      <BulkProgress progress={bulk.progress} />
      <BulkSummary report={bulk.report} onDismiss={bulk.dismiss} />
      {props.dragToMove && (
        <Paper
          withBorder
          p="xs"
          ta="center"
          data-testid="drop-root"
          style={{
            borderStyle: 'dashed',
            background: drag.rootIsTarget ? 'var(--mantine-primary-color-light)' : undefined,
          }}
          {...drag.rootProps}
        >
          <Text size="xs" c="dimmed">
            Drop here to move to the top level
          </Text>
        </Paper>
      )}
      <Paper withBorder>
        <ScrollRegion ref={scrollRef} label={props.listLabel} style={{ maxHeight: '65vh' }}>
          {rows.length === 0 && !props.pending && (
            <Text p="md" c="dimmed">
              {needle ? 'Nothing matches.' : props.empty}
            </Text>
          )}
          <div
            ref={treeRef}
            // A tree needs its items (axe: aria-required-children): an empty list is no tree.
            {...(rows.length > 0 ? { role: 'tree', 'aria-label': props.listLabel } : {})}
            style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
          >
            {virtualizer.getVirtualItems().map((v) => {
              const row = rows[v.index]!;
              return (
                <div
                  key={v.key}
                  role="treeitem"
                  aria-label={entryName(tree, row)}
                  aria-level={needle ? 1 : row.depth + 1}
                  aria-expanded={row.kind === 'folder' ? model.expanded.has(row.folder.id) : undefined}
                  tabIndex={keyboard.tabIndexOf(v.index)}
                  {...keyboard.itemProps(v.index)}
                  style={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    width: '100%',
                    transform: `translateY(${v.start}px)`,
                  }}
                >
                  <TreeRow row={row} explorer={props} model={model} drag={drag} openDialog={setDialog} />
                </div>
              );
            })}
          </div>
        </ScrollRegion>
      </Paper>

      <ExplorerDialogs explorer={props} model={model} dialog={dialog} onClose={() => setDialog(null)} />
    </Stack>
  );
}
