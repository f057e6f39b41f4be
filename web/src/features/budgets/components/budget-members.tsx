import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PagedTable } from '../../../components/paged-table';
import { useOrg } from '../../../lib/authorization';
import { useBudgetMembers } from '../api/budgets';
import { type Budget, formatAmount } from './budget-model';

/**
 * The members at or over a per-member budget's lowest threshold this period, most spent first, each
 * linked to their usage; a page at a time.
 */
export function BudgetMembers({ budget }: { budget: Budget }) {
  const { org } = useOrg();
  const members = useBudgetMembers(org.slug, budget.id);
  const usage = `/o/${encodeURIComponent(org.slug)}/usage`;
  return (
    <PagedTable
      query={members}
      rowsOf={(page) => page.members}
      label={`Members over a threshold of ${budget.name}`}
      headers={[{ label: 'Member' }, { label: 'Spent' }, { label: 'State', width: 90 }]}
      renderRow={(m) => (
        <Table.Tr key={m.userId}>
          <Table.Td>
            <Anchor component={Link} to={`${usage}?memberId=${encodeURIComponent(m.userId)}`} size="sm">
              {m.displayName}
            </Anchor>
          </Table.Td>
          <Table.Td>
            <Text size="sm">
              {formatAmount(m.spent, budget.metric)} · {Math.floor(m.percent)} %
            </Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm" fw={700}>
              {m.state}
            </Text>
          </Table.Td>
        </Table.Tr>
      )}
      empty="No member has reached a threshold this period."
    />
  );
}
