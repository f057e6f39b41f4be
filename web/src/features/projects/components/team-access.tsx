import { Alert, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ConfirmAction } from '../../../components/confirm-action';
import { MessageRow } from '../../../components/message-row';
import { QueryError } from '../../../components/query-error';
import { ScrollRegion } from '../../../components/scroll-region';
import { errorMessage, type Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDeleteTeamAccess } from '../api/delete-team-access';
import { useTeamAccess } from '../../../lib/queries/get-team-access';
import { usePutTeamAccess } from '../api/put-team-access';
import { SelectField } from '../../../components/select-field';

type GrantRole = Schemas['GrantRole'];
const ROLES: GrantRole[] = ['READ', 'EDIT', 'MANAGE'];

/** Why the controls are off, in words: the server's rule for team access (docs/decisions.md). */
export const MANAGE_REQUIRED =
  "Granting, changing or revoking team access needs this project's MANAGE grant, held directly or through a team.";
function ManageRequired() {
  return (
    <Alert color="yellow" title="You can see team access but not change it" data-testid="manage-required">
      {MANAGE_REQUIRED} Org admins oversee projects read-only; the people with MANAGE are listed under "Who can open
      it".
    </Alert>
  );
}

/** The grant form: a picker of the organization's teams (the server lists them to MANAGE holders). */
function GrantForm({
  project,
  disabled,
  granted,
  choices,
}: {
  project: Schemas['ProjectDetail'];
  disabled: boolean;
  granted: Set<string>;
  choices: Schemas['MyTeam'][];
}) {
  const { org } = useOrg();
  const put = usePutTeamAccess();
  const [teamId, setTeamId] = useState<string | null>(null);
  const [role, setRole] = useState<GrantRole>('READ');
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!teamId) return;
    put.mutate(
      { params: { path: { orgSlug: org.slug, projectId: project.id } }, body: { teamId, role } },
      {
        onSuccess: (grant) => {
          notifySuccess(`${grant.teamName} has ${grant.role} on ${project.name}`);
          setTeamId(null);
        },
      },
    );
  };
  return (
    <form onSubmit={submit} aria-label="Grant a team access">
      <Group align="flex-end" wrap="wrap">
        <SelectField
          label="Team"
          placeholder={disabled ? 'Needs MANAGE' : 'Type to search'}
          searchable
          limit={50}
          nothingFoundMessage="No team by that name"
          data={choices.map((t) => ({
            value: t.id,
            label: `${t.name} (${t.slug})${granted.has(t.id) ? ' · has access' : ''}`,
          }))}
          value={teamId}
          onChange={setTeamId}
          disabled={disabled}
          w={280}
        />
        <SelectField label="Access" data={ROLES} value={role} onChange={setRole} disabled={disabled} w={120} />
        <Button type="submit" loading={put.isPending} disabled={disabled || !teamId}>
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
        <GrantForm project={project} disabled={disabled} granted={granted} choices={access.data?.teamChoices ?? []} />
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
