import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One table row across every column that says something about the table itself: loading, or empty. */
export function MessageRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={columns}>
        <Text c="dimmed" size="sm">
          {children}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
