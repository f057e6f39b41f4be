import { Alert, Button, Group, Text } from '@mantine/core';
import { errorMessage } from '../../../lib/api-client';

/**
 * The end of each settings form: the server's refusal in words, Save with its pending state, and
 * whether anything is unsaved.
 */
export function SaveFooter({
  update,
  dirty,
  label,
}: {
  update: { isError: boolean; error: unknown; isPending: boolean };
  dirty: boolean;
  label: string;
}) {
  return (
    <>
      {update.isError && (
        <Alert color="red" title="Not saved" role="alert">
          {errorMessage(update.error)}
        </Alert>
      )}
      <Group>
        <Button type="submit" loading={update.isPending} disabled={!dirty}>
          {label}
        </Button>
        {dirty && (
          <Text size="sm" c="dimmed">
            Unsaved change
          </Text>
        )}
      </Group>
    </>
  );
}
