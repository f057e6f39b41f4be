import { Alert, Button, type ButtonProps, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type ReactNode, useState } from 'react';
import { errorMessage } from '../lib/api-client';

/**
 * A button that asks before doing something that cannot be undone. The dialog stays open on
 * failure and shows the server's message.
 */
export function ConfirmAction({
  label,
  title,
  message,
  confirmLabel,
  onConfirm,
  buttonProps,
  disabled,
  ariaLabel,
}: {
  label: ReactNode;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  buttonProps?: ButtonProps;
  disabled?: boolean;
  ariaLabel?: string;
}) {
  const [opened, { open, close }] = useDisclosure(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setPending(true);
    setError(null);
    try {
      await onConfirm();
      close();
    } catch (e) {
      setError(e);
    } finally {
      setPending(false);
    }
  };
  return (
    <>
      <Button color="red" variant="light" size="xs" {...buttonProps} disabled={disabled} aria-label={ariaLabel} onClick={open}>
        {label}
      </Button>
      <Modal opened={opened} onClose={close} title={title} centered>
        <Stack>
          <Text>{message}</Text>
          {error !== null && (
            <Alert color="red" title="Not done" role="alert">
              {errorMessage(error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" loading={pending} onClick={confirm}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
