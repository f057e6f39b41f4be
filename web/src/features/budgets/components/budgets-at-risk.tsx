import { Alert, Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { useOrg } from '../../../lib/authorization';
import { useBudgets } from '../api/budgets';
import { atRisk, describeStatus } from './budget-model';

/** On the Usage page: the budgets at or past a threshold this period, or nothing. */
export function BudgetsAtRisk() {
  const { org } = useOrg();
  const budgets = useBudgets(org.slug);
  const risky = atRisk(budgets.data?.budgets ?? []);
  if (risky.length === 0) return null;
  return (
    <Alert color="yellow" title={`${risky.length} ${risky.length === 1 ? 'budget' : 'budgets'} at risk`} mb="md">
      {risky.map((b) => (
        <div key={b.id}>
          {b.name}: {describeStatus(b)}
        </div>
      ))}
      <Anchor component={Link} to={`/o/${encodeURIComponent(org.slug)}/usage/budgets`} size="sm">
        See the budgets
      </Anchor>
    </Alert>
  );
}
