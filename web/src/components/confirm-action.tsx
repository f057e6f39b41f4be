import { Button, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { ConfirmDialog } from './confirm-dialog';

/** A button that asks before doing something that cannot be undone. */
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
  return (
    <>
      <Button
        color="red"
        variant="light"
        size="xs"
        {...buttonProps}
        disabled={disabled}
        aria-label={ariaLabel}
        onClick={open}
      >
        {label}
      </Button>
      <ConfirmDialog
        opened={opened}
        onClose={close}
        title={title}
        message={message}
        confirmLabel={confirmLabel}
        onConfirm={onConfirm}
      />
    </>
  );
}
