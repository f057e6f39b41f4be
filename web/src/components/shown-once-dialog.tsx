import { Alert, Button, Code, CopyButton, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A secret the service answers only once (an API token, a webhook's signing secret), shown with a
 * copy button; closing the dialog forgets it. `children` say how to use it.
 */
export function ShownOnceDialog({
  opened,
  title,
  value,
  valueTestId,
  copyLabel,
  warning,
  onClose,
  children,
}: {
  opened: boolean;
  title: string;
  value: string;
  valueTestId: string;
  copyLabel: string;
  warning: ReactNode;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack>
        <Alert color="yellow" title="Copy it now">
          {warning}
        </Alert>
        <Code block data-testid={valueTestId} style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {value}
        </Code>
        <Group justify="space-between">
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button variant={copied ? 'light' : 'filled'} onClick={copy}>
                {copied ? 'Copied' : copyLabel}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
        </Group>
        {children}
      </Stack>
    </Modal>
  );
}
