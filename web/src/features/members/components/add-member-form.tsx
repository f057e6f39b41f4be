import { Alert, Button, Group, Paper, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { SelectField } from '../../../components/select-field';
import { errorMessage } from '../../../lib/api-client';
import { assignableRoles, type OrgRole, useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useAddMember } from '../api/add-member';

/** Adds a member by chat-platform id; the user is created when new. The form keeps its values on failure. */
export function AddMemberForm() {
  const { org } = useOrg();
  const add = useAddMember();
  const form = useForm({
    initialValues: { imOpenId: '', displayName: '', role: 'MEMBER' as OrgRole },
    validate: { imOpenId: (v) => (v.trim() ? null : 'Enter the imOpenId') },
  });
  const submit = form.onSubmit((values) => {
    add.mutate(
      {
        params: { path: { orgSlug: org.slug } },
        body: {
          imOpenId: values.imOpenId.trim(),
          role: values.role,
          ...(values.displayName.trim() ? { displayName: values.displayName.trim() } : {}),
        },
      },
      {
        onSuccess: (member) => {
          notifySuccess(`Added ${member.displayName} as ${member.role}`);
          form.reset();
        },
      },
    );
  });
  return (
    <Paper withBorder p="md" mb="md" component="form" onSubmit={submit} aria-labelledby="add-member-title">
      <Title order={2} size="h4" id="add-member-title" mb="sm">
        Add a member
      </Title>
      <Group align="flex-end" wrap="wrap">
        <TextInput label="imOpenId" required {...form.getInputProps('imOpenId')} />
        <TextInput label="Display name (optional)" {...form.getInputProps('displayName')} />
        <SelectField label="Role" data={assignableRoles(org.role)} w={140} {...form.getInputProps('role')} />
        <Button type="submit" loading={add.isPending}>
          Add member
        </Button>
      </Group>
      {add.isError && (
        <Alert color="red" mt="sm" title="The member was not added" role="alert">
          {errorMessage(add.error)}
        </Alert>
      )}
    </Paper>
  );
}
