import { Alert, Anchor, MultiSelect, Paper, Stack, Switch, TagsInput, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { QueryError } from '../../../components/query-error';
import { errorMessage, type Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useSignInProviders } from '../../../lib/queries/get-sign-in-providers';
import { useSettings } from '../../../lib/queries/get-settings';
import { SelectField } from '../../../components/select-field';
import { useDomains } from '../api/domains';
import { useUpdateSettings } from '../api/update-settings';
import { SaveFooter } from './save-footer';
import { DOMAINS_SECTION_ID } from './domains-section';

type AutoJoin = Schemas['AutoJoin'];
interface Draft {
  on: boolean;
  providerId: string | null;
  emailDomains: string[];
  tenantKeys: string[];
}

const draftOf = (rule: AutoJoin | null): Draft => ({
  on: rule !== null,
  providerId: rule?.providerId ?? null,
  emailDomains: rule?.emailDomains ?? [],
  tenantKeys: rule?.tenantKeys ?? [],
});

/**
 * Automatic membership: people who sign in through the chosen provider with a verified email at
 * one of the domains, or from one of the tenants, join as MEMBER. The server checks the domains
 * and the provider; its message is shown when it refuses.
 */
export function AutoJoinForm() {
  const { org } = useOrg();
  const settings = useSettings(org.slug);
  const providers = useSignInProviders();
  const domains = useDomains(org.slug);
  const update = useUpdateSettings();
  const [draft, setDraft] = useState<Draft>(draftOf(null));
  const [noProvider, setNoProvider] = useState(false);
  useEffect(() => {
    if (settings.data) setDraft(draftOf(settings.data.autoJoin));
  }, [settings.data]);
  if (settings.isError) return <QueryError error={settings.error} />;
  const saved = draftOf(settings.data?.autoJoin ?? null);
  const dirty = settings.data !== undefined && JSON.stringify(draft) !== JSON.stringify(saved);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const providerOptions = (providers.data?.providers ?? []).map((p) => ({ value: p.id, label: p.label }));
  // A rule may name a provider the operator has since turned off: keep it visible.
  if (draft.providerId && !providerOptions.some((p) => p.value === draft.providerId)) {
    providerOptions.push({ value: draft.providerId, label: `${draft.providerId} (not offered at sign-in)` });
  }
  const verified = (domains.data?.domains ?? []).filter((d) => d.status === 'verified').map((d) => d.domain);
  // A rule may name a domain that is not verified (set before domains were verified): keep it visible.
  const domainOptions = [
    ...verified,
    ...draft.emailDomains.filter((d) => !verified.includes(d)).map((d) => ({ value: d, label: `${d} (not verified)` })),
  ];
  const body = draft.on
    ? {
        autoJoin: {
          providerId: draft.providerId ?? '',
          emailDomains: draft.emailDomains,
          tenantKeys: draft.tenantKeys,
          role: 'MEMBER' as const,
        },
      }
    : { autoJoin: null };
  return (
    <Paper
      withBorder
      p="md"
      mt="md"
      component="form"
      aria-labelledby="auto-join-title"
      onSubmit={(e: React.FormEvent) => {
        e.preventDefault();
        setNoProvider(draft.on && !draft.providerId);
        if (draft.on && !draft.providerId) return;
        update.mutate(
          { params: { path: { orgSlug: org.slug } }, body },
          { onSuccess: () => notifySuccess('Automatic membership saved') },
        );
      }}
    >
      <Stack>
        <Title order={2} size="h4" id="auto-join-title">
          Automatic membership
        </Title>
        <Switch
          label="Let people join as MEMBER when they sign in"
          description={
            'Someone signing in through the provider below whose verified email is at one of the domains, ' +
            'or whose account belongs to one of the tenants, becomes a MEMBER. Someone whose membership was ' +
            'revoked is not added again.'
          }
          checked={draft.on}
          disabled={settings.isPending}
          onChange={(e) => set({ on: e.currentTarget.checked })}
        />
        {settings.data?.autoJoin?.disabledReason && (
          <Alert color="yellow" title="This rule is switched off" role="status">
            {settings.data.autoJoin.disabledReason.message}
          </Alert>
        )}
        {draft.on && (
          <>
            <SelectField
              label="Identity provider"
              placeholder={providers.isPending ? 'Loading providers…' : 'Choose a provider'}
              data={providerOptions}
              value={draft.providerId}
              onChange={(providerId) => set({ providerId })}
              error={noProvider ? 'Choose the provider people sign in through' : undefined}
              required
            />
            {providers.isSuccess && providers.data.providers.length === 0 && (
              <Text size="sm" c="dimmed">
                No identity provider is configured; the hub's operator adds one with hub identity-provider set.
              </Text>
            )}
            {providers.isError && (
              <Text size="sm" c="red">
                The providers did not load: {errorMessage(providers.error)}
              </Text>
            )}
            <MultiSelect
              label="Email domains"
              description={
                <>
                  The organization's verified domains; add and verify one under{' '}
                  <Anchor href={`#${DOMAINS_SECTION_ID}`} inherit underline="always">
                    Domains
                  </Anchor>
                  .
                </>
              }
              placeholder={domains.isPending ? 'Loading domains…' : undefined}
              data={domainOptions}
              value={draft.emailDomains}
              onChange={(emailDomains) => set({ emailDomains })}
              nothingFoundMessage="No verified domain"
              searchable
            />
            {domains.isSuccess && verified.length === 0 && (
              <Text size="sm" c="dimmed">
                No domain is verified yet, so people can join by tenant key only. Add and verify one under Domains.
              </Text>
            )}
            {domains.isError && (
              <Text size="sm" c="red">
                The domains did not load: {errorMessage(domains.error)}
              </Text>
            )}
            <TagsInput
              label="Tenant keys"
              description="The provider's tenant ids (Lark tenant_key). Press Enter after each."
              value={draft.tenantKeys}
              onChange={(tenantKeys) => set({ tenantKeys })}
            />
          </>
        )}
        <SaveFooter update={update} dirty={dirty} label="Save automatic membership" />
      </Stack>
    </Paper>
  );
}
