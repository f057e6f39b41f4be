import { Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ConfirmAction } from '../../../components/confirm-action';
import { QueryError } from '../../../components/query-error';
import { useOrg } from '../../../lib/authorization';
import { folderPath } from '../../../lib/folder-tree';
import { formatDate } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { plural } from '../../../lib/units';
import { useExplorer } from '../../../lib/queries/get-explorer';
import { useMembers } from '../../../lib/queries/get-members';
import { useServiceAccounts } from '../../../lib/queries/get-service-accounts';
import { useTeams } from '../../../lib/queries/get-teams';
import { buildProjectTree } from '../../../lib/project-tree';
import { useTokens } from '../../../lib/queries/get-api-tokens';
import { useBudgets, useDeleteBudget } from '../api/budgets';
import { EditBudgetDialog } from './budget-form';
import { BudgetMembers } from './budget-members';
import { type Budget, describeStatus, PERIOD_LABELS, STATE_COLORS } from './budget-model';

/** Each budget with this period's spend as a bar and in words (the colour is never the only cue). */
export function BudgetsList() {
  const { org } = useOrg();
  const budgets = useBudgets(org.slug);
  const explorer = useExplorer(org.slug);
  const teams = useTeams(org.slug);
  const members = useMembers(org.slug);
  const tokens = useTokens(org.slug);
  const accounts = useServiceAccounts(org.slug);
  const remove = useDeleteBudget();
  const [editing, setEditing] = useState<Budget | null>(null);
  if (budgets.isError) return <QueryError error={budgets.error} />;
  const tree = buildProjectTree(explorer.data);
  const scopeLabel = (b: Budget): string => {
    switch (b.scope.type) {
      case 'organization':
        return 'The whole organization';
      case 'folder':
        return `Folder ${folderPath(tree, b.scope.id ?? null)} and everything under it`;
      case 'project':
        return `Project ${explorer.data?.projects.find((p) => p.id === b.scope.id)?.name ?? b.scope.id}`;
      case 'team':
        return `Team ${teams.data?.teams.find((t) => t.id === b.scope.id)?.name ?? b.scope.id}`;
      case 'member': {
        const member = members.data?.members.find((m) => m.userId === b.scope.id);
        return `Member ${member?.displayName ?? b.scope.id}`;
      }
      case 'apiToken':
        return `API token ${tokens.data?.tokens.find((t) => t.id === b.scope.id)?.name ?? b.scope.id}`;
      case 'serviceAccount':
        return `Service account ${accounts.data?.serviceAccounts.find((a) => a.id === b.scope.id)?.name ?? b.scope.id}`;
    }
  };
  const list = budgets.data?.budgets ?? [];
  return (
    <Stack gap="sm" aria-labelledby="budgets-title" component="section">
      <Title order={2} size="h4" id="budgets-title">
        Budgets
      </Title>
      {budgets.isPending && <Text c="dimmed">Loading…</Text>}
      {!budgets.isPending && list.length === 0 && <Text c="dimmed">No budget yet.</Text>}
      {list.map((b) => (
        <Paper key={b.id} withBorder p="md" data-testid={`budget-${b.name}`}>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Stack gap={0} miw={0}>
              <Text fw={600}>{b.name}</Text>
              <Text size="xs" c="dimmed">
                {scopeLabel(b)}
                {b.perMember && ' · each member'} · {PERIOD_LABELS[b.period]} · alerts at {b.thresholds.join(', ')} %
                {b.enforcement === 'block' && ' · blocks new runs at the amount'}
              </Text>
            </Stack>
            <Group gap="xs">
              <Button size="xs" variant="default" onClick={() => setEditing(b)} aria-label={`Edit ${b.name}`}>
                Edit
              </Button>
              <ConfirmAction
                label="Delete"
                ariaLabel={`Delete ${b.name}`}
                title={`Delete ${b.name}?`}
                message="The budget and what it has announced this period are removed; spend is not."
                confirmLabel="Delete budget"
                onConfirm={async () => {
                  await remove.mutateAsync({ params: { path: { orgSlug: org.slug, budgetId: b.id } } });
                  notifySuccess(`Budget ${b.name} deleted`);
                }}
              />
            </Group>
          </Group>
          <Progress.Root size="lg" mt="sm">
            <Progress.Section
              value={Math.min(100, b.status.percent)}
              color={STATE_COLORS[b.status.state]}
              aria-label={`${b.name}: ${describeStatus(b)}`}
            />
          </Progress.Root>
          <Group justify="space-between" mt={4} wrap="wrap">
            <Text size="sm" fw={b.status.state === 'ok' ? 400 : 700}>
              {describeStatus(b)}
            </Text>
            <Text size="xs" c="dimmed">
              {formatDate(b.status.periodStart)} – {formatDate(new Date(Date.parse(b.status.periodEnd) - 1))} (UTC)
              {b.metric === 'costUsd' &&
                b.status.runsWithoutCost > 0 &&
                ` · ${plural(b.status.runsWithoutCost, 'run')} without a cost`}
            </Text>
          </Group>
          {b.perMember && (
            <Stack gap="xs" mt="sm">
              <Text size="sm">
                Each member’s own spend: the figures above are the member who spent most.{' '}
                {plural(b.status.membersReached ?? 0, 'member')} at or over {b.thresholds[0]} %.
              </Text>
              {(b.status.membersReached ?? 0) > 0 && <BudgetMembers budget={b} />}
            </Stack>
          )}
        </Paper>
      ))}
      {editing && <EditBudgetDialog budget={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
