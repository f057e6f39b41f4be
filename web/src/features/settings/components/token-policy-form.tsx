import { Group, NumberInput, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { QueryError } from '../../../components/query-error';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useSettings } from '../../../lib/queries/get-settings';
import { useUpdateSettings } from '../api/update-settings';
import { SaveFooter } from './save-footer';

type Policy = Schemas['TokenPolicy'];

/** A day count typed into a field: empty means no limit. */
const daysOf = (value: string | number): number | null => (value === '' ? null : Number(value));

/**
 * The organization's rules for API tokens. Checked when a token is created or rotated; a change
 * applies to tokens issued from then on and never extends one already issued.
 */
export function TokenPolicyForm() {
  const { org } = useOrg();
  const settings = useSettings(org.slug);
  const update = useUpdateSettings();
  const [policy, setPolicy] = useState<Policy | null>(null);
  useEffect(() => {
    if (settings.data) setPolicy(settings.data.tokens);
  }, [settings.data]);
  if (settings.isError) return <QueryError error={settings.error} />;
  const saved = settings.data?.tokens;
  const dirty = policy !== null && saved !== undefined && JSON.stringify(policy) !== JSON.stringify(saved);
  const set = (patch: Partial<Policy>) => setPolicy((current) => current && { ...current, ...patch });
  return (
    <Paper
      withBorder
      p="md"
      mt="md"
      component="form"
      aria-labelledby="token-policy-title"
      onSubmit={(e: React.FormEvent) => {
        e.preventDefault();
        if (!policy) return;
        update.mutate(
          { params: { path: { orgSlug: org.slug } }, body: { tokens: policy } },
          { onSuccess: () => notifySuccess('Token policy saved') },
        );
      }}
    >
      <Stack>
        <Title order={2} size="h4" id="token-policy-title">
          API tokens
        </Title>
        <Text size="sm" c="dimmed">
          Checked whenever a token is created or rotated; a change never extends a token already issued. Expired tokens,
          and tokens unused for the days set below, are revoked every ten minutes.
        </Text>
        <Switch
          label="Members may create personal tokens"
          description="Off: only service accounts hold tokens (org admins make them on the Service accounts page)."
          checked={policy?.personalAllowed ?? true}
          disabled={!policy}
          onChange={(e) => set({ personalAllowed: e.currentTarget.checked })}
        />
        <Switch
          label="Every token must expire"
          checked={policy?.requireExpiry ?? false}
          disabled={!policy}
          onChange={(e) => set({ requireExpiry: e.currentTarget.checked })}
        />
        <Group align="flex-start" wrap="wrap">
          <NumberInput
            label="Longest lifetime (days)"
            description="Empty: no limit"
            min={1}
            max={3650}
            allowDecimal={false}
            w={220}
            value={policy?.maxLifetimeDays ?? ''}
            disabled={!policy}
            onChange={(value) => set({ maxLifetimeDays: daysOf(value) })}
          />
          <NumberInput
            label="Revoke when unused for (days)"
            description="Empty: never"
            min={1}
            max={3650}
            allowDecimal={false}
            w={220}
            value={policy?.revokeUnusedAfterDays ?? ''}
            disabled={!policy}
            onChange={(value) => set({ revokeUnusedAfterDays: daysOf(value) })}
          />
        </Group>
        <SaveFooter update={update} dirty={dirty} label="Save token policy" />
      </Stack>
    </Paper>
  );
}
