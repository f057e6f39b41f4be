import { Alert, Button, Group, Paper, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useNavigate } from 'react-router';
import { SelectField } from '../../../components/select-field';
import { errorMessage } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useCreateServiceAccount } from '../api/service-accounts';

export const SERVICE_ACCOUNT_ROLES = ['MEMBER', 'ADMIN'] as const;

/** Creates a service account and opens its page, where it gets teams and tokens. */
export function CreateServiceAccountForm() {
  const { org } = useOrg();
  const create = useCreateServiceAccount();
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { name: '', description: '', role: 'MEMBER' as (typeof SERVICE_ACCOUNT_ROLES)[number] },
    validate: { name: (v) => (v.trim() ? null : 'Name it after what will use it') },
  });
  const submit = form.onSubmit((v) =>
    create.mutate(
      {
        params: { path: { orgSlug: org.slug } },
        body: {
          name: v.name.trim(),
          role: v.role,
          ...(v.description.trim() ? { description: v.description.trim() } : {}),
        },
      },
      {
        onSuccess: (account) => {
          notifySuccess(`Created service account ${account.name}`);
          form.reset();
          void navigate(`/o/${org.slug}/service-accounts/${account.id}`);
        },
      },
    ),
  );
  return (
    <Paper withBorder p="md" mb="md" component="form" onSubmit={submit} aria-labelledby="create-sa-title">
      <Title order={2} size="h4" id="create-sa-title" mb="xs">
        Create a service account
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        An identity the organization owns, for integrations, CI and runtimes: it holds a role, teams and tokens, never
        signs in, takes no member seat, and keeps working whoever leaves.
      </Text>
      <Group align="flex-start" wrap="wrap">
        <TextInput label="Name" required placeholder="e.g. CI deployer" {...form.getInputProps('name')} />
        <SelectField label="Role" data={[...SERVICE_ACCOUNT_ROLES]} w={140} {...form.getInputProps('role')} />
        <Textarea label="Description" autosize minRows={1} w={280} {...form.getInputProps('description')} />
      </Group>
      <Button type="submit" mt="sm" loading={create.isPending}>
        Create service account
      </Button>
      {create.isError && (
        <Alert color="red" mt="sm" title="The service account was not created" role="alert">
          {errorMessage(create.error)}
        </Alert>
      )}
    </Paper>
  );
}
