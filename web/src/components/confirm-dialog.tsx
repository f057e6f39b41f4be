import { Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { DialogFooter, useDialogAction } from './dialog-action';

/** Asks before an irreversible act; stays open with the server's message when it fails. */
export function ConfirmDialog({
  opened,
  title,
  message,
  confirmLabel,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onClose: () => void;
  onConfirm: () => Promise<unknown>;
}) {
  const { pending, error, run } = useDialogAction(opened, onClose);
  const confirm = () => run(onConfirm);
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack>
        <Text>{message}</Text>
        <DialogFooter
          label={confirmLabel}
          pending={pending}
          color="red"
          error={error}
          onCancel={onClose}
          onConfirm={confirm}
        />
      </Stack>
    </Modal>
  );
}
