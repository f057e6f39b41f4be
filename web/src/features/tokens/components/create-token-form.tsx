import { Alert, Button, Group, Paper, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { useCreateToken } from '../api/tokens';
import { type Access, AREAS, type Area, scopesOf } from './scopes';
import { TokenCreatedDialog } from './token-created-dialog';
import { SelectField } from '../../../components/select-field';

const EXPIRY_DAYS = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never (until revoked)' },
];
const DAY_MS = 86_400_000;

/**
 * Creates a token for the signed-in member, or for a service account (org admins); the token itself
 * is shown once, in a dialog, then forgotten.
 */
export function CreateTokenForm({ serviceAccount }: { serviceAccount?: { id: string; name: string } } = {}) {
  const { org } = useOrg();
  const create = useCreateToken();
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const form = useForm({
    initialValues: { name: '', expiry: '90', access: {} as Partial<Record<Area, Access>> },
    validate: {
      name: (v) => (v.trim() ? null : 'Name the token after what will use it'),
      access: (v) => (scopesOf(v).length ? null : 'Give the token at least one scope'),
    },
  });
  const submit = form.onSubmit((values) => {
    const expiresAt =
      values.expiry === 'never' ? null : new Date(Date.now() + Number(values.expiry) * DAY_MS).toISOString();
    create.mutate(
      {
        params: { path: { orgSlug: org.slug } },
        body: {
          name: values.name.trim(),
          scopes: scopesOf(values.access),
          expiresAt,
          ...(serviceAccount ? { serviceAccountId: serviceAccount.id } : {}),
        },
      },
      {
        onSuccess: (token) => {
          setCreated({ name: token.name, token: token.token });
          form.reset();
        },
      },
    );
  });
  return (
    <Paper withBorder p="md" mb="md" component="form" onSubmit={submit} aria-labelledby="create-token-title">
      <Title order={2} size="h4" id="create-token-title" mb="xs">
        Create a token
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {serviceAccount
          ? `A token acts as ${serviceAccount.name}, with its role, teams and grants, ` +
            'but only in the areas you give it. '
          : 'A token acts as you, with your rights, but only in the areas you give it. '}
        Programs send it as <code>Authorization: Bearer …</code>.
      </Text>
      <Stack gap="sm">
        <Group align="flex-end" wrap="wrap">
          <TextInput label="Name" required placeholder="e.g. billing export" {...form.getInputProps('name')} />
          <SelectField label="Expires" data={EXPIRY_DAYS} w={200} {...form.getInputProps('expiry')} />
        </Group>
        <Table.ScrollContainer minWidth={420}>
          <Table striped aria-label="Scopes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Area</Table.Th>
                <Table.Th>Access</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {AREAS.map(({ area, label, covers }) => (
                <Table.Tr key={area}>
                  <Table.Td>
                    <Text size="sm" fw={500} id={`scope-${area}`}>
                      {label}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {covers}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <SegmentedControl
                      size="xs"
                      aria-labelledby={`scope-${area}`}
                      data={[
                        { value: 'none', label: 'None' },
                        { value: 'read', label: 'Read' },
                        { value: 'write', label: 'Read & write' },
                      ]}
                      value={form.values.access[area] ?? 'none'}
                      onChange={(value) => form.setFieldValue(`access.${area}`, value as Access)}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {form.errors.access && (
          <Text size="sm" c="red" role="alert">
            {form.errors.access}
          </Text>
        )}
        <Group>
          <Button type="submit" loading={create.isPending}>
            Create token
          </Button>
        </Group>
        {create.isError && (
          <Alert color="red" title="The token was not created" role="alert">
            {errorMessage(create.error)}
          </Alert>
        )}
      </Stack>
      <TokenCreatedDialog created={created} onClose={() => setCreated(null)} />
    </Paper>
  );
}
