import { Code, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { ScrollRegion } from '../../../components/scroll-region';
import { CONTAIN, Cost } from './cost';
import { type Breakdown, formatCount, UNIT } from './report-model';

const NOWRAP = { whiteSpace: 'nowrap' } as const;
const KIND_LABEL = { model: 'Model', tool: 'Tool', capability: 'External capability' } as const;

/** What the runs consumed, itemized: by fact kind, and calls by external capability. */
export function UsageBreakdown({ breakdown }: { breakdown: Breakdown }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <Stack gap="xs">
        <Title order={3} size="h5" id="usage-by-kind">
          By fact kind
        </Title>
        <ScrollRegion label="Usage by fact kind" style={CONTAIN}>
          <Table striped miw={360} aria-labelledby="usage-by-kind" data-testid="usage-by-kind">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Kind</Table.Th>
                <Table.Th ta="right" style={NOWRAP}>
                  Facts
                </Table.Th>
                <Table.Th ta="right" style={NOWRAP}>
                  Quantity
                </Table.Th>
                <Table.Th ta="right" style={NOWRAP}>
                  Cost (USD)
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {breakdown.byFactKind.length === 0 && <EmptyRow text="No usage fact in this window." />}
              {breakdown.byFactKind.map((k) => (
                <Table.Tr key={k.kind}>
                  <Table.Th scope="row" fw={500}>
                    {KIND_LABEL[k.kind]}
                  </Table.Th>
                  <Table.Td ta="right" style={NOWRAP}>
                    {formatCount(k.factCount)}
                  </Table.Td>
                  <Table.Td ta="right" style={NOWRAP}>
                    {formatCount(k.quantity)} {UNIT[k.kind]}
                  </Table.Td>
                  <Table.Td ta="right" style={NOWRAP}>
                    <Cost value={k.costUsd} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollRegion>
      </Stack>
      <Stack gap="xs">
        <Title order={3} size="h5" id="usage-by-capability">
          By external capability
        </Title>
        <ScrollRegion label="Usage by external capability" style={CONTAIN}>
          <Table striped miw={360} aria-labelledby="usage-by-capability" data-testid="usage-by-capability">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Capability</Table.Th>
                <Table.Th ta="right" style={NOWRAP}>
                  Facts
                </Table.Th>
                <Table.Th ta="right" style={NOWRAP}>
                  Calls
                </Table.Th>
                <Table.Th ta="right" style={NOWRAP}>
                  Cost (USD)
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {breakdown.byCapability.length === 0 && <EmptyRow text="No external capability was called." />}
              {breakdown.byCapability.map((c) => (
                <Table.Tr key={c.capabilityId}>
                  <Table.Th scope="row" fw={500}>
                    {c.label ?? (
                      <Text span size="sm" c="dimmed" fs="italic">
                        no connection
                      </Text>
                    )}{' '}
                    <Code>{c.capabilityId}</Code>
                  </Table.Th>
                  <Table.Td ta="right" style={NOWRAP}>
                    {formatCount(c.factCount)}
                  </Table.Td>
                  <Table.Td ta="right" style={NOWRAP}>
                    {formatCount(c.quantity)}
                  </Table.Td>
                  <Table.Td ta="right" style={NOWRAP}>
                    <Cost value={c.costUsd} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollRegion>
      </Stack>
    </SimpleGrid>
  );
}

function EmptyRow({ text }: { text: string }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={4}>
        <Text c="dimmed" size="sm">
          {text}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
