import { Alert, Badge, Button, Group, List, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { DialogError } from '../../../components/dialog-action';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { useTestOrgIdentityProvider } from '../api/identity-providers';

type Report = Schemas['TestSignInReport'];
type Provider = Schemas['OrgIdentityProvider'];

/**
 * The channel a test sign-in's popup tells the Settings page on. Not `window.opener`: the page's
 * Cross-Origin-Opener-Policy cuts the popup off from its opener once it has been at the provider.
 */
export const TEST_REPORT_CHANNEL = 'hub-test-sign-in';

/** The report a test sign-in's page carries in its URL fragment; undefined when it is none. */
export function reportOfFragment(hash: string): Report | undefined {
  try {
    const json = atob(hash.replace(/^#/, '').replace(/-/g, '+').replace(/_/g, '/'));
    const report = JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0))));
    return typeof report === 'object' && report !== null && typeof report.subject === 'string' ? report : undefined;
  } catch {
    return undefined;
  }
}

/** What a test sign-in read, and what the mappings would do with it; team ids named when known. */
export function TestSignInReport({ report, teamName }: { report: Report; teamName?: (id: string) => string }) {
  const named = (id: string) => teamName?.(id) ?? id;
  return (
    <Stack gap={4} role="region" aria-label={`Test sign-in through ${report.providerLabel}`}>
      {report.refusal ? (
        <Alert color="yellow" title="A real sign-in would be refused">
          {report.refusal}
        </Alert>
      ) : (
        <Text size="sm" fw={500}>
          A real sign-in would be let in.
        </Text>
      )}
      <Text size="sm">
        Email: {report.email ?? 'none'} {report.email && (report.emailVerified ? '(verified)' : '(not verified)')}
      </Text>
      <Text size="sm" style={{ wordBreak: 'break-all' }}>
        Subject: {report.subject}
      </Text>
      {report.name && <Text size="sm">Name: {report.name}</Text>}
      <Text size="sm">
        Groups ({report.groupsClaim}):{' '}
        {report.overage
          ? 'left out by the provider (overage): nothing would change'
          : report.groups.length
            ? report.groups.join(', ')
            : 'none'}
      </Text>
      <Text size="sm">
        Mappings that apply:{' '}
        {report.matchedMappings.length === 0
          ? 'none'
          : report.matchedMappings
              .map((m) => [m.group, m.teamId && `team ${named(m.teamId)}`, m.role].filter(Boolean).join(' → '))
              .join('; ')}
      </Text>
      <Group gap="xs">
        <Text size="sm">Would give:</Text>
        {report.role ? <Badge variant="light">{report.role}</Badge> : <Text size="sm">no membership</Text>}
      </Group>
      {report.teamIds.length > 0 && (
        <List size="sm">
          {report.teamIds.map((id) => (
            <List.Item key={id}>{named(id)}</List.Item>
          ))}
        </List>
      )}
      <Text size="xs" c="dimmed">
        Nothing was changed: no membership, sign-in or session.
      </Text>
    </Stack>
  );
}

/**
 * "Test sign-in": runs the provider's flow in a popup (opened at the click, so no blocker stops
 * it) and shows what came back, as the popup's page passes it on.
 */
export function TestSignInButton({ provider, teamName }: { provider: Provider; teamName: (id: string) => string }) {
  const { org } = useOrg();
  const start = useTestOrgIdentityProvider();
  const [report, setReport] = useState<Report | undefined>();
  const [blocked, setBlocked] = useState(false);
  useEffect(() => {
    const channel = new BroadcastChannel(TEST_REPORT_CHANNEL);
    channel.onmessage = (event: MessageEvent) => {
      const received = event.data?.report as Report | undefined;
      if (received?.providerId === provider.id) setReport(received);
    };
    return () => channel.close();
  }, [provider.id]);
  return (
    <Stack gap="xs">
      <Group>
        <Button
          size="xs"
          variant="default"
          loading={start.isPending}
          disabled={provider.status !== 'enabled'}
          aria-label={`Test sign-in through ${provider.label}`}
          onClick={() => {
            const popup = window.open('about:blank', `test-${provider.id}`, 'popup,width=520,height=680');
            setBlocked(popup === null);
            setReport(undefined);
            start.mutate(
              { params: { path: { orgSlug: org.slug, providerId: provider.id } } },
              {
                onSuccess: ({ location }) => {
                  if (popup) popup.location.href = location;
                },
                onError: () => popup?.close(),
              },
            );
          }}
        >
          Test sign-in
        </Button>
      </Group>
      {blocked && (
        <Text size="sm" c="red">
          The browser blocked the popup; allow popups for this site and try again.
        </Text>
      )}
      <DialogError error={start.error} title="Test not started" />
      {report && <TestSignInReport report={report} teamName={teamName} />}
    </Stack>
  );
}
