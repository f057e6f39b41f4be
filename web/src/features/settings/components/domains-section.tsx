import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { ConfirmAction } from '../../../components/confirm-action';
import { DialogError } from '../../../components/dialog-action';
import { QueryError } from '../../../components/query-error';
import { errorMessage, type Schemas } from '../../../lib/api-client';
import { isOrgAdmin, useOrg } from '../../../lib/authorization';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useSettings } from '../../../lib/queries/get-settings';
import { useAddDomain, useDeleteDomain, useDomains, useUpdateDomain, useVerifyDomain } from '../api/domains';
import { useOrgIdentityProviders } from '../api/identity-providers';
import { SelectField } from '../../../components/select-field';
import { DomainRecord } from './domain-record';

type Domain = Schemas['Domain'];

/** The anchor the automatic-membership form links to. */
export const DOMAINS_SECTION_ID = 'domains';

function AddDomainForm() {
  const { org } = useOrg();
  const add = useAddDomain();
  const [domain, setDomain] = useState('');
  return (
    <Stack
      gap="xs"
      component="form"
      aria-label="Add a domain"
      onSubmit={(e: React.FormEvent) => {
        e.preventDefault();
        add.mutate(
          { params: { path: { orgSlug: org.slug } }, body: { domain: domain.trim() } },
          {
            onSuccess: (added) => {
              notifySuccess(`Added ${added.domain}; publish its TXT record, then verify`);
              setDomain('');
            },
          },
        );
      }}
    >
      <Group align="flex-end" gap="xs">
        <TextInput
          label="Domain"
          placeholder="example.com"
          value={domain}
          onChange={(e) => setDomain(e.currentTarget.value)}
          required
          style={{ flex: '1 1 14rem' }}
        />
        <Button type="submit" loading={add.isPending} disabled={domain.trim() === ''}>
          Add domain
        </Button>
      </Group>
      <DialogError error={add.error} title="The domain was not added" />
    </Stack>
  );
}

const ANY_PROVIDER = 'any';

/** A verified domain may require one of the organization's providers for everyone with an address at it. */
function EnforcementPicker({ domain }: { domain: Domain }) {
  const { org } = useOrg();
  const providers = useOrgIdentityProviders(org.slug);
  const update = useUpdateDomain();
  const options = [
    { value: ANY_PROVIDER, label: 'Any sign-in' },
    ...(providers.data?.identityProviders ?? [])
      .filter((p) => p.status === 'enabled' || p.id === domain.enforceSso?.providerId)
      .map((p) => ({ value: p.id, label: p.label })),
  ];
  return (
    <Stack gap="xs">
      <SelectField
        label={`Sign-in required for ${domain.domain}`}
        size="xs"
        data={options}
        value={domain.enforceSso?.providerId ?? ANY_PROVIDER}
        disabled={update.isPending}
        onChange={(value) =>
          update.mutate(
            {
              params: { path: { orgSlug: org.slug, domainId: domain.id } },
              body: { enforceSso: value === ANY_PROVIDER ? null : { providerId: value } },
            },
            {
              onSuccess: (changed) =>
                notifySuccess(
                  changed.enforceSso
                    ? `People at ${changed.domain} now sign in only through ${changed.enforceSso.providerId}`
                    : `People at ${changed.domain} may sign in any way`,
                ),
            },
          )
        }
      />
      {update.isPending && <Text size="xs">Saving…</Text>}
      {update.isError && (
        <Alert color="red" title="Not changed" role="alert">
          {errorMessage(update.error)}
        </Alert>
      )}
    </Stack>
  );
}

/** Verify (a DNS lookup on the server, which may take seconds) and delete, each saying how it went. */
function DomainActions({ domain, inRule }: { domain: Domain; inRule: boolean }) {
  const { org } = useOrg();
  const verify = useVerifyDomain();
  const remove = useDeleteDomain();
  const path = { orgSlug: org.slug, domainId: domain.id };
  return (
    <Stack gap="xs">
      <Group gap="xs">
        {domain.status === 'pending' && (
          <Button
            size="xs"
            loading={verify.isPending}
            aria-label={`Verify ${domain.domain}`}
            onClick={() =>
              verify.mutate(
                { params: { path } },
                { onSuccess: (verified) => notifySuccess(`${verified.domain} is verified`) },
              )
            }
          >
            Verify
          </Button>
        )}
        <ConfirmAction
          label="Delete"
          ariaLabel={`Delete ${domain.domain}`}
          title={`Delete “${domain.domain}”?`}
          message={
            inRule
              ? 'The automatic-membership rule names this domain, so the removal is refused: take the domain out ' +
                'of the rule first.'
              : 'The organization stops claiming the domain; another organization may then verify it. ' +
                'Invitations already made for addresses at it stay as they are.'
          }
          confirmLabel="Delete domain"
          onConfirm={() =>
            remove.mutateAsync({ params: { path } }).then(() => notifySuccess(`Deleted ${domain.domain}`))
          }
        />
      </Group>
      {verify.isError && (
        <Alert color="red" title="Not verified" role="alert">
          {errorMessage(verify.error)}
        </Alert>
      )}
    </Stack>
  );
}

function DomainsTable({ domains, ruleDomains }: { domains: Domain[]; ruleDomains: string[] }) {
  const { org } = useOrg();
  const admin = isOrgAdmin(org.role);
  return (
    <Table.ScrollContainer minWidth={340}>
      <Table aria-label="Domains" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Domain</Table.Th>
            <Table.Th>Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {domains.map((domain) => (
            <Table.Tr key={domain.id}>
              <Table.Td style={{ wordBreak: 'break-all' }}>
                <Stack gap="sm">
                  <Text fw={500}>{domain.domain}</Text>
                  {domain.status === 'pending' && (
                    <DomainRecord
                      domain={domain.domain}
                      name={domain.verification.name}
                      value={domain.verification.value}
                    />
                  )}
                  {admin && domain.status === 'verified' && <EnforcementPicker domain={domain} />}
                  {admin && (
                    <DomainActions
                      domain={domain}
                      inRule={domain.status === 'verified' && ruleDomains.includes(domain.domain)}
                    />
                  )}
                </Stack>
              </Table.Td>
              <Table.Td style={{ verticalAlign: 'top' }}>
                <Stack gap={2}>
                  <Badge variant={domain.status === 'verified' ? 'filled' : 'default'}>{domain.status}</Badge>
                  {domain.verifiedAt && (
                    <Text size="xs" c="dimmed">
                      since {formatDateTime(domain.verifiedAt)}
                    </Text>
                  )}
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * The organization's domains: added as pending, verified through a DNS TXT record (or by the hub's
 * operator), and then usable in automatic membership and in invitations bound to an email address.
 */
export function DomainsSection() {
  const { org } = useOrg();
  const domains = useDomains(org.slug);
  const settings = useSettings(org.slug);
  const ruleDomains = settings.data?.autoJoin?.emailDomains ?? [];
  return (
    <Paper withBorder p="md" mt="md" component="section" aria-labelledby="domains-title" id={DOMAINS_SECTION_ID}>
      <Stack>
        <Title order={2} size="h4" id="domains-title">
          Domains
        </Title>
        <Text size="sm" c="dimmed">
          A verified domain proves the organization owns the email addresses at it: automatic membership by email domain
          and invitations bound to an email address accept only verified domains. Add a domain, publish the TXT record
          it shows in the domain's DNS, then verify it.
        </Text>
        {isOrgAdmin(org.role) && <AddDomainForm />}
        {domains.isError ? (
          <QueryError error={domains.error} title="Could not load the domains" />
        ) : domains.isPending ? (
          <Text c="dimmed">Loading domains…</Text>
        ) : domains.data.domains.length === 0 ? (
          <Text c="dimmed">
            No domains yet. Add one above, such as example.com, to let people with an address at it join automatically
            or be invited by email.
          </Text>
        ) : (
          <DomainsTable domains={domains.data.domains} ruleDomains={ruleDomains} />
        )}
      </Stack>
    </Paper>
  );
}
