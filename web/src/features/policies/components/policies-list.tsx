import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ConfirmAction } from '../../../components/confirm-action';
import { QueryError } from '../../../components/query-error';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useExplorer } from '../../../lib/queries/get-explorer';
import { useTeams } from '../../../lib/queries/get-teams';
import { useDeletePolicy, usePolicies } from '../api/policies';
import { EditPolicyDialog } from './policy-form';
import { describeAllow, describeScope, type Policy } from './policy-model';

/** The names scopes point at: folders, projects and teams by id. */
export function useScopeNames(): Map<string, string> {
  const { org } = useOrg();
  const explorer = useExplorer(org.slug);
  const teams = useTeams(org.slug);
  return new Map([
    ...(explorer.data?.folders ?? []).map((f) => [f.id, f.name] as const),
    ...(explorer.data?.projects ?? []).map((p) => [p.id, p.name] as const),
    ...(teams.data?.teams ?? []).map((t) => [t.id, t.name] as const),
  ]);
}

/** Every policy with its scope and allow in words: the organization's first. */
export function PoliciesList() {
  const { org } = useOrg();
  const policies = usePolicies(org.slug);
  const names = useScopeNames();
  const remove = useDeletePolicy();
  const [editing, setEditing] = useState<Policy | null>(null);
  if (policies.isError) return <QueryError error={policies.error} />;
  const list = policies.data?.policies ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby="policies-title">
      <Title order={2} size="h4" id="policies-title">
        Policies
      </Title>
      {policies.isPending && <Text c="dimmed">Loading…</Text>}
      {!policies.isPending && list.length === 0 && (
        <Text c="dimmed">No policy yet: every run may use every model, provider and capability.</Text>
      )}
      {list.map((p) => {
        const scope = describeScope(p.scope, names);
        return (
          <Paper key={p.id} withBorder p="md" data-testid={`policy-${p.scope.type}`}>
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={0} miw={0}>
                <Text fw={600}>{scope}</Text>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {describeAllow(p.allow)}
                </Text>
              </Stack>
              <Group gap="xs">
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => setEditing(p)}
                  aria-label={`Edit the policy of ${scope}`}
                >
                  Edit
                </Button>
                <ConfirmAction
                  label="Remove"
                  ariaLabel={`Remove the policy of ${scope}`}
                  title={`Remove the policy of ${scope}?`}
                  message="Its scope narrows nothing any more, from the next run on."
                  confirmLabel="Remove policy"
                  onConfirm={async () => {
                    await remove.mutateAsync({ params: { path: { orgSlug: org.slug, policyId: p.id } } });
                    notifySuccess('Usage policy removed');
                  }}
                />
              </Group>
            </Group>
          </Paper>
        );
      })}
      {editing && (
        <EditPolicyDialog
          policy={editing}
          title={describeScope(editing.scope, names)}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}
