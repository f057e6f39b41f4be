import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';

/** Shows an endpoint's new signing secret once, with a copy button; closing the dialog forgets it. */
export function SecretDialog({
  shown,
  onClose,
}: {
  shown: { title: string; secret: string } | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={shown !== null}
      onClose={onClose}
      title={shown?.title ?? ''}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack>
        <Alert color="yellow" title="Copy it now">
          This is the only time the signing secret is shown. The service keeps it sealed and never shows it again.
        </Alert>
        <Code block data-testid="webhook-secret" style={{ wordBreak: 'break-all' }}>
          {shown?.secret}
        </Code>
        <Group justify="space-between">
          <CopyButton value={shown?.secret ?? ''}>
            {({ copied, copy }) => (
              <Button variant={copied ? 'light' : 'filled'} onClick={copy}>
                {copied ? 'Copied' : 'Copy secret'}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          Receivers verify <Code>webhook-signature</Code> with it (Standard Webhooks, e.g. the{' '}
          <Code>standardwebhooks</Code> package).
        </Text>
      </Stack>
    </Modal>
  );
}
