import { Table, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useRef } from 'react';
import { tableWidth, WIDE_ONLY } from '../lib/narrow';
import { ScrollRegion } from './scroll-region';

export type Column<T> = {
  key: string;
  header: ReactNode;
  render: (row: T) => ReactNode;
  width?: number | string;
  /** Dropped on a phone (lib/narrow.ts): not the key column nor an action. */
  wideOnly?: boolean;
};

const shownOn = (column: { wideOnly?: boolean }) => (column.wideOnly ? WIDE_ONLY : {});

/**
 * A table that renders only the rows in view (plus a margin), so 20,000 rows cost what 30 do.
 * Spacer rows above and below keep the scroll height of the whole list.
 */
export function VirtualTable<T>({
  rows,
  columns,
  rowKey,
  label,
  estimateRowHeight = 53,
  maxHeight = '65vh',
  minWidth = 640,
  empty = 'Nothing here yet.',
}: {
  rows: readonly T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
  label: string;
  estimateRowHeight?: number;
  maxHeight?: string | number;
  minWidth?: number;
  empty?: ReactNode;
}) {
  const scrollRef = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateRowHeight,
    overscan: 12,
    getItemKey: (index) => rowKey(rows[index] as T),
  });
  const items = virtualizer.getVirtualItems();
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = items.length ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;
  return (
    <ScrollRegion ref={scrollRef} label={label} style={{ maxHeight }}>
      <Table
        stickyHeader
        striped
        highlightOnHover
        miw={tableWidth(minWidth)}
        aria-label={label}
        aria-rowcount={rows.length + 1}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.key} w={c.width} {...shownOn(c)}>
                {c.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>
                <Text c="dimmed">{empty}</Text>
              </Table.Td>
            </Table.Tr>
          )}
          {paddingTop > 0 && (
            <tr>
              <td colSpan={columns.length} style={{ height: paddingTop, padding: 0, border: 0 }} />
            </tr>
          )}
          {items.map((item) => {
            const row = rows[item.index] as T;
            return (
              <Table.Tr
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                aria-rowindex={item.index + 2}
              >
                {columns.map((c) => (
                  <Table.Td key={c.key} {...shownOn(c)}>
                    {c.render(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            );
          })}
          {paddingBottom > 0 && (
            <tr>
              <td colSpan={columns.length} style={{ height: paddingBottom, padding: 0, border: 0 }} />
            </tr>
          )}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}
