import { Code, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { MessageRow } from '../../../components/message-row';
import { ScrollRegion } from '../../../components/scroll-region';
import { tableWidth, WIDE_ONLY } from '../../../lib/narrow';
import { CONTAIN, Cost } from './cost';
import { type Breakdown, formatCount, UNIT } from './report-model';

const NOWRAP = { whiteSpace: 'nowrap' } as const;
const KIND_LABEL = { model: 'Model', tool: 'Tool', capability: 'External capability' } as const;

/** One line of a breakdown table: what it sums, how many facts, how much of it, and what it cost. */
interface BreakdownRow {
  key: string;
  name: ReactNode;
  factCount: number;
  quantity: string;
  costUsd: number | null;
}

/** What the runs consumed, itemized: by fact kind, and calls by external capability. */
export function UsageBreakdown({ breakdown }: { breakdown: Breakdown }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <BreakdownTable
        id="usage-by-kind"
        title="By fact kind"
        region="Usage by fact kind"
        nameHeader="Kind"
        quantityHeader="Quantity"
        empty="No usage fact in this window."
        rows={breakdown.byFactKind.map((k) => ({
          key: k.kind,
          name: KIND_LABEL[k.kind],
          factCount: k.factCount,
          quantity: `${formatCount(k.quantity)} ${UNIT[k.kind]}`,
          costUsd: k.costUsd,
        }))}
      />
      <BreakdownTable
        id="usage-by-capability"
        title="By external capability"
        region="Usage by external capability"
        nameHeader="Capability"
        quantityHeader="Calls"
        empty="No external capability was called."
        rows={breakdown.byCapability.map((c) => ({
          key: c.capabilityId,
          name: (
            <>
              {c.label ?? (
                <Text span size="sm" c="dimmed" fs="italic">
                  no connection
                </Text>
              )}{' '}
              <Code>{c.capabilityId}</Code>
            </>
          ),
          factCount: c.factCount,
          quantity: formatCount(c.quantity),
          costUsd: c.costUsd,
        }))}
      />
    </SimpleGrid>
  );
}

function BreakdownTable(props: {
  id: string;
  title: string;
  region: string;
  nameHeader: string;
  quantityHeader: string;
  empty: string;
  rows: BreakdownRow[];
}) {
  return (
    <Stack gap="xs">
      <Title order={3} size="h5" id={props.id}>
        {props.title}
      </Title>
      <ScrollRegion label={props.region} style={CONTAIN}>
        <Table striped miw={tableWidth(360)} aria-labelledby={props.id} data-testid={props.id}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{props.nameHeader}</Table.Th>
              <Table.Th ta="right" style={NOWRAP} {...WIDE_ONLY}>
                Facts
              </Table.Th>
              {[props.quantityHeader, 'Cost (USD)'].map((header) => (
                <Table.Th key={header} ta="right" style={NOWRAP}>
                  {header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.rows.length === 0 && <MessageRow columns={4}>{props.empty}</MessageRow>}
            {props.rows.map((row) => (
              <Table.Tr key={row.key}>
                <Table.Th scope="row" fw={500}>
                  {row.name}
                </Table.Th>
                <Table.Td ta="right" style={NOWRAP} {...WIDE_ONLY}>
                  {formatCount(row.factCount)}
                </Table.Td>
                <Table.Td ta="right" style={NOWRAP}>
                  {row.quantity}
                </Table.Td>
                <Table.Td ta="right" style={NOWRAP}>
                  <Cost value={row.costUsd} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollRegion>
    </Stack>
  );
}
