import { Button, Group } from '@mantine/core';
import { NavLink } from 'react-router';
import { useOrg } from '../../../lib/authorization';

/** The Usage area's two pages: the report and the budgets, as links (each is its own URL). */
export function UsageTabs() {
  const { org } = useOrg();
  const base = `/o/${encodeURIComponent(org.slug)}/usage`;
  const tab = (to: string, label: string, end: boolean) => (
    <NavLink to={to} end={end} style={{ textDecoration: 'none' }}>
      {({ isActive }) => (
        <Button
          component="span"
          size="xs"
          variant={isActive ? 'filled' : 'default'}
          aria-current={isActive ? 'page' : undefined}
        >
          {label}
        </Button>
      )}
    </NavLink>
  );
  return (
    <Group gap="xs" component="nav" aria-label="Usage pages">
      {tab(base, 'Report', true)}
      {tab(`${base}/budgets`, 'Budgets', false)}
    </Group>
  );
}
