import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';

/** Shows a new token once, with a copy button; closing the dialog forgets it. */
export function TokenCreatedDialog({
  created,
  onClose,
}: {
  created: { name: string; token: string } | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={created !== null} onClose={onClose} title={`Token “${created?.name ?? ''}” created`} centered>
      <Stack>
        <Alert color="yellow" title="Copy it now">
          This is the only time the token is shown. The service keeps only a fingerprint of it.
        </Alert>
        <Code block data-testid="new-token" style={{ wordBreak: 'break-all' }}>
          {created?.token}
        </Code>
        <Group justify="space-between">
          <CopyButton value={created?.token ?? ''}>
            {({ copied, copy }) => (
              <Button variant={copied ? 'light' : 'filled'} onClick={copy}>
                {copied ? 'Copied' : 'Copy token'}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          Use it as <Code>Authorization: Bearer &lt;token&gt;</Code> on /api/org/… of this organization.
        </Text>
      </Stack>
    </Modal>
  );
}
