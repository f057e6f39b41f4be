import { Alert } from '@mantine/core';
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

/** The server's message for an action that failed, while the dialog stays open. */
export function DialogError({ error, title = 'Not done' }: { error: unknown; title?: string }) {
  if (error === null) return null;
  return (
    <Alert color="red" title={title} role="alert">
      {errorMessage(error)}
    </Alert>
  );
}
