import { Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';

/** One field of the TXT record to publish, with a button that copies it exactly. */
function RecordField({ label, value, domain }: { label: string; value: string; domain: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code style={{ wordBreak: 'break-all' }}>{value}</Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button
              size="compact-xs"
              variant={copied ? 'light' : 'default'}
              onClick={copy}
              aria-label={`Copy the record ${label.toLowerCase()} of ${domain}`}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

/** The DNS TXT record that proves a pending domain: whoever runs the domain's DNS publishes it. */
export function DomainRecord({ domain, name, value }: { domain: string; name: string; value: string }) {
  return (
    <Stack gap="xs">
      <Text size="sm">Publish this TXT record in the DNS of {domain}, then verify:</Text>
      <RecordField label="Name" value={name} domain={domain} />
      <RecordField label="Value" value={value} domain={domain} />
    </Stack>
  );
}
