import { Alert, Button, Group, List, type MantineColor } from '@mantine/core';
import { useEffect, useState } from 'react';
import { errorMessage } from '../lib/api-client';

/**
 * The one action of a dialog: pending while it runs, the dialog closed when it succeeds, and
 * kept open with the server's error when it fails. The error is cleared each time the dialog opens.
 */
export function useDialogAction(opened: boolean, onClose: () => void) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (opened) setError(null);
  }, [opened]);
  const run = async (action: () => Promise<unknown>) => {
    setPending(true);
    setError(null);
    try {
      await action();
      onClose();
    } catch (e) {
      setError(e);
    } finally {
      setPending(false);
    }
  };
  return { pending, error, run };
}

type Detail = { path: string; message: string };

/** The problems the server listed one by one (a `validation_failed` envelope's `details`), if any. */
function errorDetails(error: unknown): Detail[] {
  if (typeof error !== 'object' || error === null || !('error' in error)) return [];
  return (error as { error?: { details?: Detail[] } }).error?.details ?? [];
}

/** The server's message, and each problem it listed, for an action that failed while the dialog stays open. */
export function DialogError({ error, title = 'Not done' }: { error: unknown; title?: string | undefined }) {
  if (error === null || error === undefined) return null;
  const details = errorDetails(error);
  return (
    <Alert color="red" title={title} role="alert">
      {errorMessage(error)}
      {details.length > 0 && (
        <List size="sm" mt={4}>
          {details.map((d) => (
            <List.Item key={`${d.path}:${d.message}`}>
              <code>{d.path}</code> {d.message}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

/**
 * The end of every dialog: the server's error, then Cancel and the one action. The action submits
 * the dialog's form unless `onConfirm` is given (a dialog without a form). Cancel waits while the
 * action runs, so the dialog cannot close on a request whose outcome nobody would then see.
 */
export function DialogFooter({
  label,
  pending,
  error,
  errorTitle,
  onCancel,
  onConfirm,
  disabled = false,
  color,
}: {
  label: string;
  pending: boolean;
  error: unknown;
  errorTitle?: string;
  onCancel: () => void;
  onConfirm?: () => void;
  disabled?: boolean;
  color?: MantineColor;
}) {
  return (
    <>
      <DialogError error={error} title={errorTitle} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button
          type={onConfirm ? 'button' : 'submit'}
          color={color}
          loading={pending}
          disabled={disabled}
          onClick={onConfirm}
        >
          {label}
        </Button>
      </Group>
    </>
  );
}
