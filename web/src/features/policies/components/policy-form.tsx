import { Alert, Button, Group, Modal, Paper, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { QueryError } from '../../../components/query-error';
import { SelectField } from '../../../components/select-field';
import { errorMessage } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useExplorer } from '../../../lib/queries/get-explorer';
import { useTeams } from '../../../lib/queries/get-teams';
import { useCreatePolicy, usePolicy, useUpdatePolicy } from '../api/policies';
import { AllowFieldset } from './allow-fields';
import { allowOf, EMPTY_FIELDS, fieldsOf, type Policy, SCOPE_LABELS, type ScopeType } from './policy-model';

/** The folders, projects and teams a scope may name, as choices. */
function useScopeChoices(type: ScopeType) {
  const { org } = useOrg();
  const explorer = useExplorer(org.slug);
  const teams = useTeams(org.slug);
  if (type === 'folder') return (explorer.data?.folders ?? []).map((f) => ({ value: f.id, label: f.name }));
  if (type === 'project') return (explorer.data?.projects ?? []).map((p) => ({ value: p.id, label: p.name }));
  if (type === 'team') return (teams.data?.teams ?? []).map((t) => ({ value: t.id, label: t.name }));
  return [];
}

/** Sets the policy of a scope that has none yet. */
export function CreatePolicyForm() {
  const { org } = useOrg();
  const create = useCreatePolicy();
  const [type, setType] = useState<ScopeType>('organization');
  const [scopeId, setScopeId] = useState<string | null>(null);
  const choices = useScopeChoices(type);
  const form = useForm({ initialValues: EMPTY_FIELDS });
  const submit = form.onSubmit((fields) =>
    create.mutate(
      {
        params: { path: { orgSlug: org.slug } },
        body: { scope: type === 'organization' ? { type } : { type, id: scopeId ?? '' }, allow: allowOf(fields) },
      },
      {
        onSuccess: () => {
          notifySuccess('Usage policy set');
          form.reset();
        },
      },
    ),
  );
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-labelledby="create-policy-title">
      <Title order={2} size="h4" id="create-policy-title" mb="xs">
        Set a usage policy
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        The organization, each folder on a project's path and the project narrow what its runs may use; the teams of
        whoever starts a run grant among what is left. One policy per scope.
      </Text>
      <Group align="flex-start" wrap="wrap" mb="xs">
        <SelectField
          label="Scope"
          data={(Object.keys(SCOPE_LABELS) as ScopeType[]).map((value) => ({ value, label: SCOPE_LABELS[value] }))}
          w={190}
          value={type}
          onChange={(value) => {
            setType(value);
            setScopeId(null);
          }}
        />
        {type !== 'organization' && (
          <SelectField
            label={SCOPE_LABELS[type].replace(/^A /, 'Which ')}
            data={choices}
            searchable
            w={240}
            value={scopeId}
            onChange={setScopeId}
            nothingFoundMessage="Nothing of that name"
          />
        )}
      </Group>
      <AllowFieldset form={form} />
      <Button type="submit" mt="sm" loading={create.isPending} disabled={type !== 'organization' && scopeId === null}>
        Set policy
      </Button>
      {create.isError && (
        <Alert color="red" mt="sm" title="The policy was not set" role="alert">
          {errorMessage(create.error)}
        </Alert>
      )}
    </Paper>
  );
}

/** Changes one policy's allow, read afresh from the server when the dialog opens. */
export function EditPolicyDialog({ policy, title, onClose }: { policy: Policy; title: string; onClose: () => void }) {
  const { org } = useOrg();
  const current = usePolicy(org.slug, policy.id);
  const update = useUpdatePolicy();
  return (
    <Modal opened onClose={onClose} title={`Edit the policy of ${title}`} size="lg">
      {current.isError && <QueryError error={current.error} />}
      {current.isPending && <Text c="dimmed">Loading…</Text>}
      {current.data && (
        <EditPolicyForm
          policy={current.data}
          pending={update.isPending}
          error={update.isError ? errorMessage(update.error) : null}
          onSubmit={(allow) =>
            update.mutate(
              { params: { path: { orgSlug: org.slug, policyId: policy.id } }, body: { allow } },
              {
                onSuccess: () => {
                  notifySuccess('Usage policy changed');
                  onClose();
                },
              },
            )
          }
        />
      )}
    </Modal>
  );
}

function EditPolicyForm(props: {
  policy: Policy;
  pending: boolean;
  error: string | null;
  onSubmit: (allow: Policy['allow']) => void;
}) {
  const form = useForm({ initialValues: fieldsOf(props.policy.allow) });
  return (
    <form onSubmit={form.onSubmit((fields) => props.onSubmit(allowOf(fields)))}>
      <AllowFieldset form={form} />
      <Button type="submit" mt="sm" loading={props.pending}>
        Save policy
      </Button>
      {props.error && (
        <Alert color="red" mt="sm" title="The policy was not changed" role="alert">
          {props.error}
        </Alert>
      )}
    </form>
  );
}
