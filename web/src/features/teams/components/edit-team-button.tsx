import { Alert, Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { errorMessage, type Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useUpdateTeam } from '../api/update-team';

/** Rename or re-describe a team in a dialog that stays open (values kept) when the server refuses. */
export function EditTeamButton({ team }: { team: Schemas['TeamRow'] }) {
  const { org } = useOrg();
  const [opened, { open, close }] = useDisclosure(false);
  const update = useUpdateTeam();
  const form = useForm({
    initialValues: { name: team.name, description: team.description ?? '' },
    validate: { name: (v) => (v.trim() ? null : 'Enter a name') },
  });
  const submit = form.onSubmit((v) =>
    update.mutate(
      {
        params: { path: { orgSlug: org.slug, teamId: team.id } },
        body: { name: v.name.trim(), description: v.description.trim() || null },
      },
      {
        onSuccess: (t) => {
          notifySuccess(`Saved team ${t.name}`);
          close();
        },
      },
    ),
  );
  return (
    <>
      <Button
        variant="default"
        size="xs"
        aria-label={`Edit ${team.name}`}
        onClick={() => {
          form.setValues({ name: team.name, description: team.description ?? '' });
          update.reset();
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
            {update.isError && (
              <Alert color="red" title="Not saved" role="alert">
                {errorMessage(update.error)}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={update.isPending}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
