import { Button, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { DialogFooter, useDialogAction } from '../../../components/dialog-action';
import { SelectField } from '../../../components/select-field';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useRotateToken } from '../api/tokens';
import { TokenCreatedDialog } from './token-created-dialog';

const OVERLAPS = [
  { value: '0', label: 'None: the old secret stops now' },
  { value: '1', label: '1 hour' },
  { value: '24', label: '24 hours' },
  { value: '72', label: '72 hours' },
];

/**
 * A new secret for a token, shown once; the old one keeps working for the overlap chosen, so the
 * program using it can switch without a gap. The token keeps its id and public id.
 */
export function RotateTokenAction({ token }: { token: Schemas['ApiToken'] }) {
  const { org } = useOrg();
  const rotate = useRotateToken();
  const [opened, { open, close }] = useDisclosure(false);
  const [overlap, setOverlap] = useState('24');
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const { pending, error, run } = useDialogAction(opened, close);
  const confirm = () =>
    run(async () => {
      const rotated = await rotate.mutateAsync({
        params: { path: { orgSlug: org.slug, tokenId: token.id } },
        body: { overlapHours: Number(overlap) },
      });
      notifySuccess(`Rotated ${token.name}`);
      setCreated({ name: rotated.name, token: rotated.token });
    });
  return (
    <>
      <Button size="xs" variant="light" onClick={open} aria-label={`Rotate ${token.name}`}>
        Rotate
      </Button>
      <Modal opened={opened} onClose={close} title={`Rotate “${token.name}”?`} centered>
        <Stack>
          <Text size="sm">
            A new secret is made for {token.prefix}…; its id and public id stay. The old secret keeps working for the
            overlap you choose, then only the new one does.
          </Text>
          <SelectField label="Old secret keeps working" data={OVERLAPS} value={overlap} onChange={setOverlap} />
          <DialogFooter label="Rotate token" pending={pending} error={error} onCancel={close} onConfirm={confirm} />
        </Stack>
      </Modal>
      <TokenCreatedDialog created={created} onClose={() => setCreated(null)} />
    </>
  );
}
