import { Code, Text } from '@mantine/core';
import { ShownOnceDialog } from '../../../components/shown-once-dialog';

/** Shows a new token once, with a copy button; closing the dialog forgets it. */
export function TokenCreatedDialog({
  created,
  onClose,
}: {
  created: { name: string; token: string } | null;
  onClose: () => void;
}) {
  return (
    <ShownOnceDialog
      opened={created !== null}
      onClose={onClose}
      title={`Token “${created?.name ?? ''}” created`}
      value={created?.token ?? ''}
      valueTestId="new-token"
      copyLabel="Copy token"
      warning="This is the only time the token is shown. The service keeps only a fingerprint of it."
    >
      <Text size="xs" c="dimmed">
        Use it as <Code>Authorization: Bearer &lt;token&gt;</Code> on /api/org/… of this organization.
      </Text>
    </ShownOnceDialog>
  );
}
