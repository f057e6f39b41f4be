import { Group, Loader, TextInput } from '@mantine/core';
import { useIsMutating } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/** Above an agents list: its main action, a spinner while any change is saving, and the search box. */
export function ListToolbar({
  action,
  searchLabel,
  search,
  onSearch,
}: {
  action: ReactNode;
  searchLabel: string;
  search: string;
  onSearch: (value: string) => void;
}) {
  const saving = useIsMutating() > 0;
  return (
    <Group justify="space-between" wrap="wrap">
      {action}
      <Group gap="xs">
        {saving && <Loader size="sm" aria-label="Saving" />}
        <TextInput
          aria-label={searchLabel}
          placeholder={searchLabel}
          value={search}
          onChange={(e) => onSearch(e.currentTarget.value)}
          w={220}
        />
      </Group>
    </Group>
  );
}
