import { Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useMemo, useState } from 'react';
import type { Schemas } from '../../../lib/api-client';
import { folderPath } from '../../../lib/folder-tree';
import { buildProjectTree } from '../../../lib/project-tree';
import { isDay, matchPreset, PRESETS, presetRange, type UsageFilter } from './usage-filter';
import { SelectField } from '../../../components/select-field';

/**
 * The window (a preset, or two days typed or picked) and the folder. Every change goes to the URL
 * at once; `pending` marks the controls while the report for it loads.
 */
export function UsageFilters({
  filter,
  explorer,
  pending,
  onChange,
}: {
  filter: UsageFilter;
  explorer: Schemas['ExplorerData'] | undefined;
  pending: boolean;
  onChange: (filter: UsageFilter) => void;
}) {
  const today = new Date();
  const active = matchPreset(filter, today);
  const folders = useMemo(() => {
    const tree = buildProjectTree(explorer);
    return [...tree.folders.values()]
      .map((f) => ({ value: f.id, label: folderPath(tree, f.id) }))
      .sort((a, b) => a.label.localeCompare(b.label, 'en'));
  }, [explorer]);
  // A folder in the URL that the tree does not list (archived, or of another organization) stays
  // selectable, so the select shows what the report is filtered by; the server says if it is unknown.
  const folderOptions = [
    { value: '', label: 'All folders' },
    ...folders,
    ...(filter.folderId && !folders.some((f) => f.value === filter.folderId)
      ? [{ value: filter.folderId, label: `Folder ${filter.folderId}` }]
      : []),
  ];

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group gap="xs" wrap="wrap" role="group" aria-label="Window presets">
          {PRESETS.map((p) => (
            <Button
              key={p.value}
              size="xs"
              variant={active === p.value ? 'filled' : 'default'}
              aria-pressed={active === p.value}
              onClick={() => onChange({ ...filter, ...presetRange(p.value, today) })}
            >
              {p.label}
            </Button>
          ))}
        </Group>
        <CustomRange key={`${filter.from}|${filter.to}`} filter={filter} pending={pending} onChange={onChange} />
        <SelectField
          label="Folder"
          description="A folder covers everything under it."
          searchable
          data={folderOptions}
          value={filter.folderId ?? ''}
          onChange={(folderId) => onChange({ ...filter, folderId: folderId || null })}
          maw={480}
        />
      </Stack>
    </Paper>
  );
}

/** Two days, both included (UTC), applied together: half a range never reaches the server. */
function CustomRange({
  filter,
  pending,
  onChange,
}: {
  filter: UsageFilter;
  pending: boolean;
  onChange: (filter: UsageFilter) => void;
}) {
  // A date input holds only a day; anything else in the URL is left to the server's answer.
  const [from, setFrom] = useState(filter.from && isDay(filter.from) ? filter.from : '');
  const [to, setTo] = useState(filter.to && isDay(filter.to) ? filter.to : '');
  // The server refuses a window that ends before it starts: say so before the click, not after.
  const backwards = from !== '' && to !== '' && from > to;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!backwards) onChange({ ...filter, from: from || null, to: to || null });
  };
  return (
    <form onSubmit={submit} aria-label="Custom range">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput type="date" label="From" value={from} onChange={(e) => setFrom(e.currentTarget.value)} w={170} />
        <TextInput
          type="date"
          label="To"
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
          w={170}
          error={backwards ? 'Before From: pick a later day' : undefined}
        />
        <Button type="submit" loading={pending} variant="light" disabled={backwards}>
          Apply range
        </Button>
      </Group>
      <Text size="xs" c="dimmed" mt={4}>
        Days in UTC, both included. Leave a day empty for an open end.
      </Text>
    </form>
  );
}
