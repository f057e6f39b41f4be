import { Modal, Stack, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { DialogFooter, useDialogAction } from './dialog-action';

/** One dialog for naming things (create folder or project, rename). Stays open with the typed name on failure. */
export function NameDialog({
  opened,
  title,
  label,
  initial = '',
  submitLabel,
  onClose,
  onSubmit,
}: {
  opened: boolean;
  title: string;
  label: string;
  initial?: string;
  submitLabel: string;
  onClose: () => void;
  onSubmit: (name: string) => Promise<unknown>;
}) {
  const [name, setName] = useState(initial);
  const { pending, error, run } = useDialogAction(opened, onClose);
  useEffect(() => {
    if (opened) setName(initial);
  }, [opened, initial]);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    await run(() => onSubmit(name.trim()));
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label={label}
            required
            data-autofocus
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <DialogFooter
            label={submitLabel}
            pending={pending}
            disabled={!name.trim()}
            error={error}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
