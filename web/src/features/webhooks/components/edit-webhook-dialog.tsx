import { Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DialogFooter, useDialogAction } from '../../../components/dialog-action';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useUpdateWebhook } from '../api/webhooks';
import { WebhookFields, type WebhookFormValues, webhookValidation } from './webhook-fields';

/** Changes an endpoint's URL, description and events. */
export function EditWebhookDialog({ webhook, onClose }: { webhook: Schemas['Webhook']; onClose: () => void }) {
  const { org } = useOrg();
  const update = useUpdateWebhook();
  const { pending, error, run } = useDialogAction(true, onClose);
  const form = useForm<WebhookFormValues>({
    initialValues: { url: webhook.url, description: webhook.description, events: webhook.events },
    validate: webhookValidation,
  });
  const submit = form.onSubmit((values) =>
    run(async () => {
      await update.mutateAsync({
        params: { path: { orgSlug: org.slug, webhookId: webhook.id } },
        body: { url: values.url.trim(), description: values.description.trim(), events: values.events },
      });
      notifySuccess('Endpoint saved');
    }),
  );
  return (
    <Modal opened onClose={onClose} title="Edit endpoint" centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={submit}>
        <Stack gap="sm">
          <WebhookFields form={form} />
          <DialogFooter
            label="Save"
            pending={pending}
            error={error}
            errorTitle="The endpoint was not saved"
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
