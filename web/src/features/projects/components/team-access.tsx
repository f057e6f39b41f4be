import { Alert, Button, Code, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { ConfirmAction } from '../../../components/confirm-action';
import { MessageRow } from '../../../components/message-row';
import { QueryError } from '../../../components/query-error';
import { ScrollRegion } from '../../../components/scroll-region';
import { errorMessage, type Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useTeams } from '../../../lib/queries/get-teams';
import { useDeleteTeamAccess } from '../api/delete-team-access';
import { useTeamAccess } from '../../../lib/queries/get-team-access';
import { usePutTeamAccess } from '../api/put-team-access';
import { SelectField } from '../../../components/select-field';

type GrantRole = Schemas['GrantRole'];
const ROLES: GrantRole[] = ['READ', 'EDIT', 'MANAGE'];

/** Why the controls are off: the server's rule for team access (docs/decisions.md), named by its error code. */
export const MANAGE_REQUIRED = 'project_manage_required';
function ManageRequired() {
  return (
    <Alert color="yellow" title="You can see team access but not change it" data-testid="manage-required">
      <Code>{MANAGE_REQUIRED}</Code>: granting, changing or revoking team access needs this project's MANAGE grant (held
      directly or through a team). Org admins oversee projects read-only; ask someone with MANAGE, or get a MANAGE
      grant.
    </Alert>
  );
}

function GrantForm({
  project,
  disabled,
  granted,
}: {
  project: Schemas['ProjectDetail'];
  disabled: boolean;
  granted: Set<string>;
}) {
  const { org } = useOrg();
  const isAdmin = project.actorIsOrgAdmin ?? false;
  const teams = useTeams(org.slug, isAdmin);
  const put = usePutTeamAccess();
  const [teamId, setTeamId] = useState<string | null>(null);
  const [teamSlug, setTeamSlug] = useState('');
  const [role, setRole] = useState<GrantRole>('READ');
  const team = isAdmin ? (teamId ? { teamId } : null) : teamSlug.trim() ? { teamSlug: teamSlug.trim() } : null;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!team) return;
    put.mutate(
      { params: { path: { orgSlug: org.slug, projectId: project.id } }, body: { ...team, role } },
      {
        onSuccess: (grant) => {
          notifySuccess(`${grant.teamName} has ${grant.role} on ${project.name}`);
          setTeamId(null);
          setTeamSlug('');
        },
      },
    );
  };
  return (
    <form onSubmit={submit} aria-label="Grant a team access">
      <Group align="flex-end" wrap="wrap">
        {isAdmin ? (
          <SelectField
            label="Team"
            placeholder="Type to search"
            searchable
            limit={50}
            data={(teams.data?.teams ?? []).map((t) => ({
              value: t.id,
              label: `${t.name} (${t.slug})${granted.has(t.id) ? ' · has access' : ''}`,
            }))}
            value={teamId}
            onChange={setTeamId}
            disabled={disabled}
            w={280}
          />
        ) : (
          <TextInput
            label="Team slug"
            value={teamSlug}
            onChange={(e) => setTeamSlug(e.currentTarget.value)}
            disabled={disabled}
            w={220}
          />
        )}
        <SelectField label="Access" data={ROLES} value={role} onChange={setRole} disabled={disabled} w={120} />
        <Button type="submit" loading={put.isPending} disabled={disabled || !team}>
          Grant access
        </Button>
      </Group>
      {put.isError && (
        <Alert color="red" mt="sm" title="Access not granted" role="alert">
          {errorMessage(put.error)}
        </Alert>
      )}
    </form>
  );
}

function AccessRow({
  entry,
  project,
  disabled,
}: {
  entry: Schemas['TeamAccessEntry'];
  project: Schemas['ProjectDetail'];
  disabled: boolean;
}) {
  const { org } = useOrg();
  const put = usePutTeamAccess();
  const del = useDeleteTeamAccess();
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={500}>
          {entry.teamName}
        </Text>
        <Text size="xs" c="dimmed">
          {entry.teamSlug}
        </Text>
      </Table.Td>
      <Table.Td>
        <SelectField
          size="xs"
          w={110}
          aria-label={`Access of ${entry.teamName}`}
          data={ROLES}
          value={entry.role}
          disabled={disabled || put.isPending}
          title={disabled ? MANAGE_REQUIRED : undefined}
          onChange={(role) =>
            put.mutate(
              {
                params: { path: { orgSlug: org.slug, projectId: project.id } },
                body: { teamId: entry.teamId, role },
              },
              {
                onSuccess: (g) => notifySuccess(`${g.teamName} now has ${g.role}`),
                onError: (error) => notifyError(error, 'Access not changed'),
              },
            )
          }
        />
      </Table.Td>
      <Table.Td>
        <ConfirmAction
          label="Revoke"
          ariaLabel={`Revoke access of ${entry.teamName}`}
          title={`Revoke ${entry.teamName}'s access?`}
          message={
            `Members of ${entry.teamName} lose the ${entry.role} access ` + `this grant gives them on ${project.name}.`
          }
          confirmLabel="Revoke access"
          disabled={disabled}
          onConfirm={() =>
            del
              .mutateAsync({ params: { path: { orgSlug: org.slug, projectId: project.id, teamId: entry.teamId } } })
              .then(() => notifySuccess(`Revoked ${entry.teamName}'s access`))
          }
        />
      </Table.Td>
    </Table.Tr>
  );
}

/** Team access: listed for every reader; changed only with MANAGE — otherwise disabled, saying why. */
export function TeamAccess({ project }: { project: Schemas['ProjectDetail'] }) {
  const { org } = useOrg();
  const access = useTeamAccess(org.slug, project.id);
  const canManage = project.actorCanManageProject === true;
  const disabled = !canManage;
  const granted = new Set((access.data?.access ?? []).map((a) => a.teamId));
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={2} size="h4">
          Team access
        </Title>
        {disabled && <ManageRequired />}
        <GrantForm project={project} disabled={disabled} granted={granted} />
        {access.isError ? (
          <QueryError error={access.error} />
        ) : (
          <ScrollRegion label="Team access table">
            <Table aria-label="Team access" miw={480}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Team</Table.Th>
                  <Table.Th w={140}>Access</Table.Th>
                  <Table.Th w={120}>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(access.data?.access ?? []).map((entry) => (
                  <AccessRow key={entry.teamId} entry={entry} project={project} disabled={disabled} />
                ))}
                {access.data?.access.length === 0 && <MessageRow columns={3}>No team has access yet.</MessageRow>}
              </Table.Tbody>
            </Table>
          </ScrollRegion>
        )}
      </Stack>
    </Paper>
  );
}
