import { Code, Text } from '@mantine/core';
import { ShownOnceDialog } from '../../../components/shown-once-dialog';

/** Shows an endpoint's new signing secret once, with a copy button; closing the dialog forgets it. */
export function SecretDialog({
  shown,
  onClose,
}: {
  shown: { title: string; secret: string } | null;
  onClose: () => void;
}) {
  return (
    <ShownOnceDialog
      opened={shown !== null}
      onClose={onClose}
      title={shown?.title ?? ''}
      value={shown?.secret ?? ''}
      valueTestId="webhook-secret"
      copyLabel="Copy secret"
      warning="This is the only time the signing secret is shown. The service keeps it sealed and never shows it again."
    >
      <Text size="xs" c="dimmed">
        Receivers verify <Code>webhook-signature</Code> with it (Standard Webhooks, e.g. the{' '}
        <Code>standardwebhooks</Code> package).
      </Text>
    </ShownOnceDialog>
  );
}
