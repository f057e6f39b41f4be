import { Alert, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { SelectField } from '../../../components/select-field';
import { errorMessage } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { useExplorer } from '../../../lib/queries/get-explorer';
import { useMembers } from '../../../lib/queries/get-members';
import { useAdmitRun, useModelPicker } from '../api/policies';
import { ModelAvailability } from './model-availability';

/** A member to choose, by name, standing for `member:<imOpenId>`. */
export function MemberField({ value, onChange }: { value: string | null; onChange: (imOpenId: string) => void }) {
  const { org } = useOrg();
  const members = useMembers(org.slug);
  return (
    <SelectField
      label="Member"
      searchable
      w={240}
      data={(members.data?.members ?? []).map((m) => ({ value: m.imOpenId, label: m.displayName }))}
      value={value}
      onChange={onChange}
      nothingFoundMessage="No member of that name"
    />
  );
}

/** The effective result of the policies for a chosen project and member, and a run tried against admission. */
export function EffectiveResult() {
  const { org } = useOrg();
  const explorer = useExplorer(org.slug);
  const [projectId, setProjectId] = useState<string | null>(null);
  const [imOpenId, setImOpenId] = useState<string | null>(null);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="effective-title">
      <Title order={2} size="h4" id="effective-title" mb="xs">
        Effective result
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Choose a project and a member to see what a run they start there may use, and why anything is unavailable.
      </Text>
      <Group align="flex-start" wrap="wrap" mb="sm">
        <SelectField
          label="Project"
          searchable
          w={240}
          data={(explorer.data?.projects ?? []).map((p) => ({ value: p.id, label: p.name }))}
          value={projectId}
          onChange={setProjectId}
          nothingFoundMessage="No project of that name"
        />
        <MemberField value={imOpenId} onChange={setImOpenId} />
      </Group>
      {projectId && imOpenId ? (
        <Stack>
          <ModelAvailability projectId={projectId} imOpenId={imOpenId} />
          <TryRun projectId={projectId} imOpenId={imOpenId} />
        </Stack>
      ) : (
        <Text size="sm">Nothing chosen yet.</Text>
      )}
    </Paper>
  );
}

/** Asks admission about one run: its decision and every reason, as sentences. */
function TryRun({ projectId, imOpenId }: { projectId: string; imOpenId: string }) {
  const { org } = useOrg();
  const picker = useModelPicker(org.slug, projectId, `member:${imOpenId}`);
  const admit = useAdmitRun();
  const [model, setModel] = useState<string | null>(null);
  const ask = () =>
    admit.mutate({
      params: { path: { orgSlug: org.slug } },
      body: { projectId, initiatedBy: { type: 'member', imOpenId }, model: model ?? '' },
    });
  return (
    <Stack gap="xs">
      <Group align="flex-end" wrap="wrap">
        <SelectField
          label="Model of the run"
          w={240}
          data={(picker.data?.models ?? []).map((m) => ({ value: m.id, label: m.label }))}
          value={model}
          onChange={setModel}
        />
        <Button onClick={ask} loading={admit.isPending} disabled={model === null}>
          Ask admission
        </Button>
      </Group>
      {admit.isError && (
        <Alert color="red" title="Admission did not answer" role="alert">
          {errorMessage(admit.error)}
        </Alert>
      )}
      {admit.data && (
        <Alert
          color={admit.data.decision === 'allow' ? 'green' : 'yellow'}
          title={admit.data.decision === 'allow' ? 'The run may start' : 'The run may not start'}
          role="status"
        >
          {admit.data.reasons.length === 0 ? (
            <Text size="sm">Nothing stands in its way.</Text>
          ) : (
            <List size="sm">
              {admit.data.reasons.map((r) => (
                <List.Item key={`${r.code}-${r.source.type}-${r.source.id ?? ''}`}>{r.message}</List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
    </Stack>
  );
}
