import { Anchor, Table, Text, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ScrollRegion } from '../../../components/scroll-region';
import { tableWidth, WIDE_ONLY } from '../../../lib/narrow';
import { CONTAIN, Cost } from './cost';
import { formatCount, type ProjectRow, type Totals } from './report-model';
import type { Sort, SortKey } from './usage-filter';

// On a phone: the project, its runs and its cost.
const COLUMNS: { key: SortKey; label: string; numeric: boolean; wideOnly?: boolean }[] = [
  { key: 'project', label: 'Project', numeric: false },
  { key: 'runs', label: 'Runs', numeric: true },
  { key: 'inputTokens', label: 'Input tokens', numeric: true, wideOnly: true },
  { key: 'outputTokens', label: 'Output tokens', numeric: true, wideOnly: true },
  { key: 'cost', label: 'Cost (USD)', numeric: true },
];

function SortHeader({
  column,
  sort,
  onSort,
}: {
  column: (typeof COLUMNS)[number];
  sort: Sort;
  onSort: (key: SortKey) => void;
}) {
  const active = sort.key === column.key;
  const arrow = active ? (sort.dir === 'asc' ? '▲' : '▼') : '↕';
  return (
    <Table.Th
      aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
      ta={column.numeric ? 'right' : 'left'}
      {...(column.wideOnly ? WIDE_ONLY : {})}
    >
      <UnstyledButton onClick={() => onSort(column.key)} fw={700} fz="sm" style={{ whiteSpace: 'nowrap' }}>
        {column.label}{' '}
        <Text span aria-hidden="true" c={active ? undefined : 'dimmed'} fz="xs">
          {arrow}
        </Text>
      </UnstyledButton>
    </Table.Th>
  );
}

const Num = ({ children, wideOnly = false }: { children: ReactNode; wideOnly?: boolean }) => (
  <Table.Td ta="right" {...(wideOnly ? WIDE_ONLY : {})}>
    {children}
  </Table.Td>
);

/** Projects with runs in the window, in the chosen order, with the totals of all of them. */
export function UsageReportTable({
  rows,
  totals,
  sort,
  onSort,
  projectHref,
}: {
  rows: readonly ProjectRow[];
  totals: Totals;
  sort: Sort;
  onSort: (key: SortKey) => void;
  projectHref: (projectId: string) => string;
}) {
  return (
    <ScrollRegion label="Usage per project" style={CONTAIN}>
      <Table striped highlightOnHover miw={tableWidth(600)} aria-label="Usage per project" data-testid="usage-report">
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((c) => (
              <SortHeader key={c.key} column={c} sort={sort} onSort={onSort} />
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={COLUMNS.length}>
                <Text c="dimmed">No run in this window.</Text>
              </Table.Td>
            </Table.Tr>
          )}
          {rows.map((r) => (
            <Table.Tr key={r.projectId} data-testid="usage-row">
              <Table.Th scope="row" fw={500}>
                <Anchor component={Link} to={projectHref(r.projectId)} size="sm">
                  {r.projectName}
                </Anchor>
              </Table.Th>
              <Num>{formatCount(r.runCount)}</Num>
              <Num wideOnly>{formatCount(r.inputTokens)}</Num>
              <Num wideOnly>{formatCount(r.outputTokens)}</Num>
              <Num>
                <Cost value={r.costUsd} runsWithoutCost={r.runsWithoutCost} />
              </Num>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr data-testid="usage-totals">
            <Table.Th scope="row">Total</Table.Th>
            <Num>{formatCount(totals.runCount)}</Num>
            <Num wideOnly>{formatCount(totals.inputTokens)}</Num>
            <Num wideOnly>{formatCount(totals.outputTokens)}</Num>
            <Num>
              <Cost value={totals.costUsd} runsWithoutCost={totals.runsWithoutCost} />
            </Num>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </ScrollRegion>
  );
}
