import { Group, Title } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';

/** The screen's one h1, and the document title to match. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Org Admin`;
  }, [title]);
  return (
    <Group justify="space-between" mb="md" wrap="wrap">
      <Title order={1} size="h2">
        {title}
      </Title>
      {children}
    </Group>
  );
}
