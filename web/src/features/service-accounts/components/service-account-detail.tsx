import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ConfirmAction } from '../../../components/confirm-action';
import { QueryError } from '../../../components/query-error';
import { SelectField } from '../../../components/select-field';
import { errorMessage, type Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { formatDateTime } from '../../../lib/format';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useTeams } from '../../../lib/queries/get-teams';
import {
  useDeleteServiceAccount,
  useDisableServiceAccount,
  useEnableServiceAccount,
  useJoinTeam,
  useLeaveTeam,
  useServiceAccount,
  useUpdateServiceAccount,
} from '../api/service-accounts';
import { SERVICE_ACCOUNT_ROLES } from './create-service-account-form';

type Account = Schemas['ServiceAccount'];

function DetailsForm({ account }: { account: Account }) {
  const { org } = useOrg();
  const update = useUpdateServiceAccount();
  const [name, setName] = useState(account.name);
  const [description, setDescription] = useState(account.description ?? '');
  const [role, setRole] = useState<Account['role']>(account.role);
  useEffect(() => {
    setName(account.name);
    setDescription(account.description ?? '');
    setRole(account.role);
  }, [account]);
  const dirty = name !== account.name || description !== (account.description ?? '') || role !== account.role;
  return (
    <Paper
      withBorder
      p="md"
      mb="md"
      component="form"
      aria-labelledby="sa-details-title"
      onSubmit={(e: React.FormEvent) => {
        e.preventDefault();
        update.mutate(
          {
            params: { path: { orgSlug: org.slug, serviceAccountId: account.id } },
            body: { name: name.trim(), description: description.trim() || null, role },
          },
          { onSuccess: (saved) => notifySuccess(`Saved ${saved.name}`) },
        );
      }}
    >
      <Title order={2} size="h4" id="sa-details-title" mb="sm">
        Details
      </Title>
      <Group align="flex-start" wrap="wrap">
        <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <SelectField label="Role" data={[...SERVICE_ACCOUNT_ROLES]} w={140} value={role} onChange={setRole} />
        <Textarea
          label="Description"
          autosize
          minRows={1}
          w={280}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
      </Group>
      <Text size="xs" c="dimmed" mt="xs">
        Created {formatDateTime(account.createdAt)}
        {account.createdBy ? ` by ${account.createdBy.displayName}` : ' on the host console'}. A new role holds from its
        tokens’ next request on.
      </Text>
      <Group mt="sm">
        <Button type="submit" loading={update.isPending} disabled={!dirty || !name.trim()}>
          Save
        </Button>
      </Group>
      {update.isError && (
        <Alert color="red" mt="sm" title="Not saved" role="alert">
          {errorMessage(update.error)}
        </Alert>
      )}
    </Paper>
  );
}

function TeamsSection({ account }: { account: Account }) {
  const { org } = useOrg();
  const teams = useTeams(org.slug);
  const join = useJoinTeam();
  const leave = useLeaveTeam();
  const joined = new Set(account.teams.map((t) => t.id));
  const choices = (teams.data?.teams ?? [])
    .filter((t) => !joined.has(t.id))
    .map((t) => ({ value: t.id, label: t.name }));
  const [teamId, setTeamId] = useState('');
  const add = () =>
    join.mutate(
      { params: { path: { orgSlug: org.slug, teamId } }, body: { userId: account.id } },
      {
        onSuccess: () => {
          notifySuccess(`Added ${account.name} to the team`);
          setTeamId('');
        },
      },
    );
  return (
    <Paper withBorder p="md" mb="md" component="section" aria-labelledby="sa-teams-title">
      <Title order={2} size="h4" id="sa-teams-title" mb="xs">
        Teams and grants
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        It reaches the projects its teams have access to, with the team’s role on each (a team’s page lists them).
      </Text>
      {account.teams.length === 0 ? (
        <Text size="sm" c="dimmed" mb="sm">
          In no team yet: it reaches no project.
        </Text>
      ) : (
        <List spacing="xs" mb="sm" aria-label="Its teams">
          {account.teams.map((team) => (
            <List.Item key={team.id}>
              <Group gap="xs">
                <Anchor component={Link} to={`/o/${org.slug}/teams/${team.id}`}>
                  {team.name}
                </Anchor>
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  aria-label={`Remove from ${team.name}`}
                  loading={leave.isPending && leave.variables?.params.path.teamId === team.id}
                  onClick={() =>
                    leave.mutate(
                      { params: { path: { orgSlug: org.slug, teamId: team.id, userId: account.id } } },
                      {
                        onSuccess: () => notifySuccess(`Removed from ${team.name}`),
                        onError: (error) => notifyError(error, 'Not removed from the team'),
                      },
                    )
                  }
                >
                  Remove
                </Button>
              </Group>
            </List.Item>
          ))}
        </List>
      )}
      {teams.isError ? (
        <QueryError error={teams.error} title="Could not load the teams" />
      ) : (
        <Group align="flex-end" wrap="wrap">
          <SelectField
            label="Add to a team"
            placeholder={choices.length ? 'Choose a team' : 'No other team'}
            data={choices}
            value={teamId || null}
            onChange={(value) => setTeamId(value ?? '')}
            w={240}
            disabled={choices.length === 0}
          />
          <Button onClick={add} loading={join.isPending} disabled={!teamId}>
            Add to team
          </Button>
        </Group>
      )}
      {join.isError && (
        <Alert color="red" mt="sm" title="Not added to the team" role="alert">
          {errorMessage(join.error)}
        </Alert>
      )}
    </Paper>
  );
}

function StateSection({ account }: { account: Account }) {
  const { org } = useOrg();
  const disable = useDisableServiceAccount();
  const enable = useEnableServiceAccount();
  const remove = useDeleteServiceAccount();
  const navigate = useNavigate();
  const path = { params: { path: { orgSlug: org.slug, serviceAccountId: account.id } } };
  const toggle = account.disabledAt ? enable : disable;
  return (
    <Paper withBorder p="md" mb="md" component="section" aria-labelledby="sa-state-title">
      <Title order={2} size="h4" id="sa-state-title" mb="xs">
        State
      </Title>
      <Group gap="sm" mb="sm">
        <Badge variant={account.disabledAt ? 'default' : 'filled'}>{account.disabledAt ? 'Disabled' : 'Enabled'}</Badge>
        <Text size="sm" c="dimmed">
          {account.disabledAt
            ? `Disabled ${formatDateTime(account.disabledAt)}: its tokens are refused until it is enabled.`
            : 'Its tokens work. Disabling refuses them at once, keeping its teams and tokens.'}
        </Text>
      </Group>
      <Group>
        <Button
          variant="light"
          loading={toggle.isPending}
          onClick={() =>
            toggle.mutate(path, {
              onSuccess: (saved) => notifySuccess(`${saved.name} is ${saved.disabledAt ? 'disabled' : 'enabled'}`),
            })
          }
        >
          {account.disabledAt ? 'Enable' : 'Disable'}
        </Button>
        <ConfirmAction
          label="Delete"
          ariaLabel={`Delete ${account.name}`}
          title={`Delete “${account.name}”?`}
          message="Its tokens are revoked and its teams and role end, now. This cannot be undone."
          confirmLabel="Delete service account"
          onConfirm={() =>
            remove.mutateAsync(path).then(() => {
              notifySuccess(`Deleted ${account.name}`);
              void navigate(`/o/${org.slug}/service-accounts`);
            })
          }
        />
      </Group>
      {toggle.isError && (
        <Alert color="red" mt="sm" title="Not changed" role="alert">
          {errorMessage(toggle.error)}
        </Alert>
      )}
    </Paper>
  );
}

/** One service account: its details and role, its state, its teams (and so its grants). */
export function ServiceAccountDetail({ serviceAccountId }: { serviceAccountId: string }) {
  const { org } = useOrg();
  const { data, error, isPending } = useServiceAccount(org.slug, serviceAccountId);
  if (error) return <QueryError error={error} title="Could not load the service account" />;
  if (isPending) return <Text c="dimmed">Loading…</Text>;
  return (
    <Stack gap={0}>
      <DetailsForm account={data} />
      <StateSection account={data} />
      <TeamsSection account={data} />
    </Stack>
  );
}
