import { Button, Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { MessageRow } from './message-row';
import { QueryError } from './query-error';
import { ScrollRegion } from './scroll-region';

/** What a cursor-paged infinite query tells the table. */
export interface PagedQuery<Page> {
  data?: { pages: Page[] } | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/**
 * A short table over the pages fetched so far of a list paged by cursor: loading and empty rows,
 * the server's message on an error, and "Show more" while another page follows.
 */
export function PagedTable<Page, Row>({
  query,
  rowsOf,
  label,
  headers,
  renderRow,
  empty,
  minWidth = 300,
}: {
  query: PagedQuery<Page>;
  rowsOf: (page: Page) => Row[];
  label: string;
  headers: Array<{ label: string; width?: number }>;
  renderRow: (row: Row) => ReactNode;
  empty: ReactNode;
  minWidth?: number;
}) {
  if (query.isError) return <QueryError error={query.error} />;
  const rows = (query.data?.pages ?? []).flatMap(rowsOf);
  return (
    <>
      <ScrollRegion label={`${label} table`}>
        <Table aria-label={label} miw={minWidth}>
          <Table.Thead>
            <Table.Tr>
              {headers.map((h) => (
                <Table.Th key={h.label} w={h.width}>
                  {h.label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {query.isPending && <MessageRow columns={headers.length}>Loading…</MessageRow>}
            {!query.isPending && rows.length === 0 && <MessageRow columns={headers.length}>{empty}</MessageRow>}
            {rows.map(renderRow)}
          </Table.Tbody>
        </Table>
      </ScrollRegion>
      {query.hasNextPage && (
        <Button
          variant="default"
          size="xs"
          loading={query.isFetchingNextPage}
          onClick={() => query.fetchNextPage()}
          w="fit-content"
        >
          Show more
        </Button>
      )}
    </>
  );
}
