import { Alert, Button, Group, Paper, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { errorMessage } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useCreateTeam } from '../api/create-team';

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;
const slugify = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63);

export function CreateTeamForm() {
  const { org } = useOrg();
  const create = useCreateTeam();
  const form = useForm({
    initialValues: { name: '', slug: '', description: '' },
    validate: {
      name: (v) => (v.trim() ? null : 'Enter a name'),
      slug: (v) => (SLUG.test(v) ? null : 'Lowercase letters, digits and dashes, starting with a letter or digit'),
    },
  });
  const submit = form.onSubmit((v) =>
    create.mutate(
      {
        params: { path: { orgSlug: org.slug } },
        body: {
          name: v.name.trim(),
          slug: v.slug,
          ...(v.description.trim() ? { description: v.description.trim() } : {}),
        },
      },
      {
        onSuccess: (team) => {
          notifySuccess(`Created team ${team.name}`);
          form.reset();
        },
      },
    ),
  );
  return (
    <Paper withBorder p="md" mb="md" component="form" onSubmit={submit} aria-labelledby="create-team-title">
      <Title order={2} size="h4" id="create-team-title" mb="sm">
        Create a team
      </Title>
      <Group align="flex-start" wrap="wrap">
        <TextInput
          label="Name"
          required
          {...form.getInputProps('name')}
          onChange={(e) => {
            const name = e.currentTarget.value;
            if (!form.isTouched('slug') || form.values.slug === slugify(form.values.name))
              form.setFieldValue('slug', slugify(name));
            form.setFieldValue('name', name);
          }}
        />
        <TextInput label="Slug" required {...form.getInputProps('slug')} />
        <Textarea label="Description" autosize minRows={1} w={280} {...form.getInputProps('description')} />
      </Group>
      <Button type="submit" mt="sm" loading={create.isPending}>
        Create team
      </Button>
      {create.isError && (
        <Alert color="red" mt="sm" title="The team was not created" role="alert">
          {errorMessage(create.error)}
        </Alert>
      )}
    </Paper>
  );
}
