import {
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { ConfirmAction } from '../../../components/confirm-action';
import { DialogError } from '../../../components/dialog-action';
import { QueryError } from '../../../components/query-error';
import { SelectField } from '../../../components/select-field';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useTeams } from '../../../lib/queries/get-teams';
import { TestSignInButton } from './test-sign-in';
import {
  useCreateOrgIdentityProvider,
  useDeleteOrgIdentityProvider,
  useOrgIdentityProviders,
  useUpdateOrgIdentityProvider,
} from '../api/identity-providers';

type Provider = Schemas['OrgIdentityProvider'];
type Mapping = Schemas['GroupMapping'];
type RoleChoice = 'none' | 'MEMBER' | 'ADMIN';

/** One mapping row being edited: its group, the team it gives (or none) and the role (or none). */
interface MappingDraft {
  /** Stable while rows are added and removed, so each row keeps its own field state. */
  key: number;
  group: string;
  teamId: string;
  role: RoleChoice;
}

let nextKey = 0;
const emptyRow = (): MappingDraft => ({ key: nextKey++, group: '', teamId: '', role: 'none' });

const toMapping = ({ group, teamId, role }: MappingDraft): Mapping => ({
  group: group.trim(),
  ...(teamId ? { teamId } : {}),
  ...(role !== 'none' ? { role } : {}),
});

/** The mappings editor: a row per group, each with a team picker and a role. */
function MappingsEditor({ rows, onChange }: { rows: MappingDraft[]; onChange: (rows: MappingDraft[]) => void }) {
  const { org } = useOrg();
  const teams = useTeams(org.slug);
  const teamOptions = [
    { value: '', label: 'No team' },
    ...(teams.data?.teams ?? []).map((team) => ({ value: team.id, label: team.name })),
  ];
  const set = (i: number, patch: Partial<MappingDraft>) =>
    onChange(rows.map((row, j) => (j === i ? { ...row, ...patch } : row)));
  return (
    <Stack gap="xs" role="group" aria-label="Group mappings">
      <Text size="sm" fw={500}>
        Groups
      </Text>
      <Text size="xs" c="dimmed">
        Each group a person is in gives its team and role at every sign-in; the highest role wins (never OWNER).
      </Text>
      {rows.map((row, i) => (
        <Group key={row.key} align="flex-end" gap="xs" wrap="wrap">
          <TextInput
            label={`Group ${i + 1}`}
            placeholder="engineering"
            value={row.group}
            onChange={(e) => set(i, { group: e.currentTarget.value })}
            style={{ flex: '1 1 9rem' }}
          />
          <SelectField
            label={`Team for group ${i + 1}`}
            data={teamOptions}
            value={row.teamId}
            onChange={(teamId) => set(i, { teamId })}
            searchable
            style={{ flex: '1 1 9rem' }}
          />
          <SelectField<RoleChoice>
            label={`Role for group ${i + 1}`}
            data={[
              { value: 'none', label: 'No role' },
              { value: 'MEMBER', label: 'MEMBER' },
              { value: 'ADMIN', label: 'ADMIN' },
            ]}
            value={row.role}
            onChange={(role) => set(i, { role })}
            style={{ flex: '0 1 8rem' }}
          />
          <ActionIcon
            variant="subtle"
            aria-label={`Remove group ${i + 1}`}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
            size="lg"
          >
            ×
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button size="xs" variant="default" onClick={() => onChange([...rows, emptyRow()])}>
          Add a group
        </Button>
      </Group>
    </Stack>
  );
}

/** The redirect URI to register at the provider, with a copy button. */
function RedirectUri({ uri }: { uri: string }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Code style={{ wordBreak: 'break-all' }}>{uri}</Code>
      <CopyButton value={uri}>
        {({ copied, copy }) => (
          <Button size="compact-xs" variant="default" onClick={copy}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/** Connecting an OpenID Provider: its issuer, the client, the groups it maps; the server checks the issuer. */
function ConnectProviderForm({ onDone }: { onDone: () => void }) {
  const { org } = useOrg();
  const create = useCreateOrgIdentityProvider();
  const [fields, setFields] = useState({ id: `${org.slug}-sso`, label: '', issuer: '', clientId: '', secret: '' });
  const [mappings, setMappings] = useState<MappingDraft[]>(() => [emptyRow()]);
  const [defaultMember, setDefaultMember] = useState(false);
  const [requireGroup, setRequireGroup] = useState(false);
  const field = (name: keyof typeof fields) => ({
    value: fields[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setFields({ ...fields, [name]: e.currentTarget.value }),
  });
  return (
    <Stack
      component="form"
      aria-label="Connect an identity provider"
      gap="sm"
      onSubmit={(e: React.FormEvent) => {
        e.preventDefault();
        create.mutate(
          {
            params: { path: { orgSlug: org.slug } },
            body: {
              id: fields.id.trim(),
              kind: 'oidc',
              label: fields.label.trim(),
              issuer: fields.issuer.trim(),
              clientId: fields.clientId.trim(),
              clientSecret: fields.secret,
              mappings: mappings.filter((m) => m.group.trim() !== '').map(toMapping),
              defaultRole: defaultMember ? 'MEMBER' : null,
              requireGroup,
            },
          },
          {
            onSuccess: (created) => {
              notifySuccess(`Connected ${created.label}; register its redirect URI at the provider`);
              onDone();
            },
          },
        );
      }}
    >
      <TextInput
        label="Id"
        description={`Starts with ${org.slug}-; part of the redirect URI`}
        required
        {...field('id')}
      />
      <TextInput label="Button label" placeholder="Acme SSO" required {...field('label')} />
      <TextInput label="Issuer" placeholder="https://acme.okta.com" required {...field('issuer')} />
      <TextInput label="Client id" required {...field('clientId')} />
      <PasswordInput label="Client secret" required autoComplete="off" {...field('secret')} />
      <MappingsEditor rows={mappings} onChange={setMappings} />
      <Checkbox
        label="Make people in no mapped group a MEMBER"
        checked={defaultMember}
        onChange={(e) => setDefaultMember(e.currentTarget.checked)}
      />
      <Checkbox
        label="Refuse the sign-in of people in no mapped group"
        checked={requireGroup}
        onChange={(e) => setRequireGroup(e.currentTarget.checked)}
      />
      <DialogError error={create.error} title="The provider was not connected" />
      <Group>
        <Button type="submit" loading={create.isPending}>
          Connect provider
        </Button>
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}

/** Disable or enable, and delete, each saying how it went. */
function ProviderActions({ provider }: { provider: Provider }) {
  const { org } = useOrg();
  const update = useUpdateOrgIdentityProvider();
  const remove = useDeleteOrgIdentityProvider();
  const path = { orgSlug: org.slug, providerId: provider.id };
  const disabled = provider.status === 'disabled';
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Button
          size="xs"
          variant="default"
          loading={update.isPending}
          aria-label={`${disabled ? 'Enable' : 'Disable'} ${provider.label}`}
          onClick={() =>
            update.mutate(
              { params: { path }, body: { disabled: !disabled } },
              { onSuccess: (p) => notifySuccess(`${p.label} is ${p.status}`) },
            )
          }
        >
          {disabled ? 'Enable' : 'Disable'}
        </Button>
        <ConfirmAction
          label="Delete"
          ariaLabel={`Delete ${provider.label}`}
          title={`Delete “${provider.label}”?`}
          message="People keep their memberships and sign in another way; the sign-ins connected through it go."
          confirmLabel="Delete provider"
          onConfirm={() =>
            remove.mutateAsync({ params: { path } }).then(() => notifySuccess(`Deleted ${provider.label}`))
          }
        />
      </Group>
      <DialogError error={update.error} title="Not changed" />
    </Stack>
  );
}

/**
 * Settings → Sign-in: the organization's own identity providers, the redirect URI to register at
 * each, and the groups that decide teams and roles at every sign-in through them.
 */
export function SignInSection() {
  const { org } = useOrg();
  const providers = useOrgIdentityProviders(org.slug);
  const teams = useTeams(org.slug);
  const teamName = (id: string) => teams.data?.teams.find((team) => team.id === id)?.name ?? id;
  const [connecting, setConnecting] = useState(false);
  return (
    <Paper withBorder p="md" mt="md" component="section" aria-labelledby="sign-in-title">
      <Stack>
        <Title order={2} size="h4" id="sign-in-title">
          Sign-in
        </Title>
        <Text size="sm" c="dimmed">
          Connect your company's identity provider: its buttons appear on this organization's sign-in page, and its
          directory groups decide each person's teams and role at every sign-in. Require it for a verified domain under
          Domains.
        </Text>
        {providers.isError ? (
          <QueryError error={providers.error} title="Could not load the identity providers" />
        ) : providers.isPending ? (
          <Text c="dimmed">Loading identity providers…</Text>
        ) : providers.data.identityProviders.length === 0 ? (
          <Text c="dimmed">No identity provider yet.</Text>
        ) : (
          <Table.ScrollContainer minWidth={320}>
            <Table aria-label="Identity providers" verticalSpacing="sm">
              <Table.Tbody>
                {providers.data.identityProviders.map((provider) => (
                  <Table.Tr key={provider.id}>
                    <Table.Td>
                      <Stack gap={6}>
                        <Group gap="xs">
                          <Text fw={500}>{provider.label}</Text>
                          <Badge variant={provider.status === 'enabled' ? 'filled' : 'default'}>
                            {provider.status}
                          </Badge>
                        </Group>
                        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                          {provider.issuer ?? provider.baseUrl}
                        </Text>
                        <Text size="xs">Redirect URI to register:</Text>
                        <RedirectUri uri={provider.redirectUri} />
                        <Text size="xs">
                          {provider.mappings.length === 0
                            ? 'No group mappings.'
                            : `Groups: ${provider.mappings.map((m) => m.group).join(', ')}`}
                        </Text>
                        <ProviderActions provider={provider} />
                        <TestSignInButton provider={provider} teamName={teamName} />
                      </Stack>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {connecting ? (
          <ConnectProviderForm onDone={() => setConnecting(false)} />
        ) : (
          <Group>
            <Button onClick={() => setConnecting(true)}>Connect a provider</Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
