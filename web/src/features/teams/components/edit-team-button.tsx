import { Button, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { DialogFooter, useDialogAction } from '../../../components/dialog-action';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useUpdateTeam } from '../api/update-team';

/** Rename or re-describe a team in a dialog that stays open (values kept) when the server refuses. */
export function EditTeamButton({ team }: { team: Schemas['TeamRow'] }) {
  const { org } = useOrg();
  const [opened, { open, close }] = useDisclosure(false);
  const update = useUpdateTeam();
  const { pending, error, run } = useDialogAction(opened, close);
  const form = useForm({
    initialValues: { name: team.name, description: team.description ?? '' },
    validate: { name: (v) => (v.trim() ? null : 'Enter a name') },
  });
  const submit = form.onSubmit((v) =>
    run(async () => {
      const saved = await update.mutateAsync({
        params: { path: { orgSlug: org.slug, teamId: team.id } },
        body: { name: v.name.trim(), description: v.description.trim() || null },
      });
      notifySuccess(`Saved team ${saved.name}`);
    }),
  );
  return (
    <>
      <Button
        variant="default"
        size="xs"
        aria-label={`Edit ${team.name}`}
        onClick={() => {
          form.setValues({ name: team.name, description: team.description ?? '' });
          open();
        }}
      >
        Edit
      </Button>
      <Modal opened={opened} onClose={close} title={`Edit team ${team.name}`} centered>
        <form onSubmit={submit}>
          <Stack>
            <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
            <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
            <DialogFooter label="Save" pending={pending} error={error} errorTitle="Not saved" onCancel={close} />
          </Stack>
        </form>
      </Modal>
    </>
  );
}
