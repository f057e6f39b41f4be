import { formatDate } from '../../../lib/format';
import { Alert, Button, Group, Paper, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { ConfirmAction } from '../../../components/confirm-action';
import { QueryError } from '../../../components/query-error';
import { type Column, VirtualTable } from '../../../components/virtual-table';
import { errorMessage, type Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useMembers } from '../../../lib/queries/get-members';
import { useAddTeamMember } from '../api/add-team-member';
import { useTeamMembers } from '../../../lib/queries/get-team-members';
import { useRevokeTeamMember } from '../api/revoke-team-member';
import { SelectField } from '../../../components/select-field';

type Team = Schemas['TeamRow'];
type TeamMember = Schemas['TeamMemberRow'];

/** Add a team member: pick one of the organization's members, or type an imOpenId. */
function AddTeamMemberForm({ team, current }: { team: Team; current: ReadonlySet<string> }) {
  const { org } = useOrg();
  const members = useMembers(org.slug);
  const add = useAddTeamMember();
  const [mode, setMode] = useState<'member' | 'imOpenId'>('member');
  const [userId, setUserId] = useState<string | null>(null);
  const [imOpenId, setImOpenId] = useState('');
  const options = useMemo(
    () =>
      (members.data?.members ?? [])
        .filter((m) => !current.has(m.userId))
        .map((m) => ({ value: m.userId, label: `${m.displayName} (${m.imOpenId})` })),
    [members.data, current],
  );
  const body =
    mode === 'member' ? (userId ? { userId } : null) : imOpenId.trim() ? { imOpenId: imOpenId.trim() } : null;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!body) return;
    add.mutate(
      { params: { path: { orgSlug: org.slug, teamId: team.id } }, body },
      {
        onSuccess: (m) => {
          notifySuccess(`Added ${m.displayName} to ${team.name}`);
          setUserId(null);
          setImOpenId('');
        },
      },
    );
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-labelledby="add-team-member-title">
      <Title order={2} size="h4" id="add-team-member-title" mb="sm">
        Add a member to the team
      </Title>
      <Stack gap="sm">
        <SegmentedControl
          aria-label="Add by"
          value={mode}
          onChange={(v) => setMode(v as 'member' | 'imOpenId')}
          data={[
            { value: 'member', label: 'Choose a member' },
            { value: 'imOpenId', label: 'By imOpenId' },
          ]}
          maw={340}
        />
        <Group align="flex-end" wrap="wrap">
          {mode === 'member' ? (
            <SelectField
              label="Organization member"
              placeholder={members.isPending ? 'Loading…' : 'Type to search'}
              searchable
              limit={50}
              data={options}
              value={userId}
              onChange={setUserId}
              nothingFoundMessage="No member matches"
              w={320}
            />
          ) : (
            <TextInput label="imOpenId" value={imOpenId} onChange={(e) => setImOpenId(e.currentTarget.value)} w={320} />
          )}
          <Button type="submit" loading={add.isPending} disabled={!body}>
            Add to team
          </Button>
        </Group>
        {add.isError && (
          <Alert color="red" title="Not added" role="alert">
            {errorMessage(add.error)}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

function RemoveCell({ team, member }: { team: Team; member: TeamMember }) {
  const { org } = useOrg();
  const revoke = useRevokeTeamMember();
  return (
    <ConfirmAction
      label="Remove"
      ariaLabel={`Remove ${member.displayName} from the team`}
      title={`Remove ${member.displayName} from ${team.name}?`}
      message="They lose the project access this team grants; their organization membership stays."
      confirmLabel="Remove from team"
      onConfirm={() =>
        revoke
          .mutateAsync({ params: { path: { orgSlug: org.slug, teamId: team.id, userId: member.userId } } })
          .then(() => notifySuccess(`Removed ${member.displayName} from ${team.name}`))
      }
    />
  );
}

export function TeamMembers({ team }: { team: Team }) {
  const { org } = useOrg();
  const members = useTeamMembers(org.slug, team.id);
  const current = useMemo(() => new Set((members.data?.members ?? []).map((m) => m.userId)), [members.data]);
  const columns: Column<TeamMember>[] = [
    { key: 'name', header: 'Name', render: (m) => m.displayName },
    { key: 'imOpenId', wideOnly: true, header: 'imOpenId', render: (m) => m.imOpenId },
    {
      key: 'since',
      wideOnly: true,
      header: 'In team since',
      render: (m) => formatDate(m.createdAt),
      width: 130,
    },
    { key: 'actions', header: 'Actions', render: (m) => <RemoveCell team={team} member={m} />, width: 110 },
  ];
  return (
    <Stack>
      <AddTeamMemberForm team={team} current={current} />
      <Title order={2} size="h4">
        Team members
      </Title>
      {members.isError ? (
        <QueryError error={members.error} />
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {members.isPending ? 'Loading…' : `${members.data.members.length} members`}
          </Text>
          <VirtualTable
            label="Team members"
            rows={members.data?.members ?? []}
            columns={columns}
            rowKey={(m) => m.userId}
            empty="No member in this team yet."
          />
        </>
      )}
    </Stack>
  );
}
