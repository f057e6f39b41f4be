import { Alert, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { useCreateWebhook } from '../api/webhooks';
import { SecretDialog } from './secret-dialog';
import { WebhookFields, type WebhookFormValues, webhookValidation } from './webhook-fields';

/** Adds an endpoint; its signing secret is shown once, in a dialog, then forgotten. */
export function CreateWebhookForm() {
  const { org } = useOrg();
  const create = useCreateWebhook();
  const [shown, setShown] = useState<{ title: string; secret: string } | null>(null);
  const form = useForm<WebhookFormValues>({
    initialValues: { url: '', description: '', events: [] },
    validate: webhookValidation,
  });
  const submit = form.onSubmit((values) => {
    create.mutate(
      {
        params: { path: { orgSlug: org.slug } },
        body: { url: values.url.trim(), description: values.description.trim(), events: values.events },
      },
      {
        onSuccess: (created) => {
          setShown({ title: 'Webhook endpoint added', secret: created.secret });
          form.reset();
        },
      },
    );
  });
  return (
    <Paper withBorder p="md" mb="md" component="form" onSubmit={submit} aria-labelledby="create-webhook-title">
      <Title order={2} size="h4" id="create-webhook-title" mb="xs">
        Add an endpoint
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        The endpoint receives a signed POST for every change it subscribes to, retried for a day until it answers 2xx.
        It must be https and reach a public address, unless the platform operator set{' '}
        <Code>HUB_OUTBOUND_ALLOW_PRIVATE=1</Code> (plain http and private addresses, for receivers on the same network).
      </Text>
      <Stack gap="sm">
        <WebhookFields form={form} />
        <Group>
          <Button type="submit" loading={create.isPending}>
            Add endpoint
          </Button>
        </Group>
        {create.isError && (
          <Alert color="red" title="The endpoint was not added" role="alert">
            {errorMessage(create.error)}
          </Alert>
        )}
      </Stack>
      <SecretDialog shown={shown} onClose={() => setShown(null)} />
    </Paper>
  );
}
