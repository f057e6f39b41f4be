import { Modal, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useRotateProviderConnection } from '../api/rotate-provider-connection';
import { SECRET_INPUT, SecretsFooter, useSecretSubmit } from './connection-parts';

const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function ProviderForm({ providerId, onClose }: { providerId: string | null; onClose: () => void }) {
  const { org } = useOrg();
  const rotate = useRotateProviderConnection();
  const { pending, error, submit } = useSecretSubmit(true, onClose);
  const form = useForm({
    initialValues: { providerId: providerId ?? '', baseUrl: '', authToken: '', vendorApiKey: '' },
    validate: {
      providerId: (v) => (PROVIDER_ID.test(v.trim()) ? null : 'Letters, digits, dot, dash or underscore (up to 64)'),
      baseUrl: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? null : 'An https URL (http only for localhost)'),
      authToken: (v) => (v ? null : 'Enter the token'),
    },
  });
  const onSubmit = form.onSubmit((v) =>
    submit(
      () =>
        rotate
          .mutateAsync({
            params: { path: { orgSlug: org.slug, providerId: v.providerId.trim() } },
            body: {
              baseUrl: v.baseUrl.trim(),
              authToken: v.authToken,
              ...(v.vendorApiKey ? { vendorApiKey: v.vendorApiKey } : {}),
            },
          })
          .then((row) => notifySuccess(`${row.providerId}: version ${row.activeVersion} is active`)),
      () => {
        form.setValues({ authToken: '', vendorApiKey: '' });
        rotate.reset();
      },
    ),
  );
  return (
    <form onSubmit={onSubmit} method="post" noValidate>
      <Stack>
        {providerId === null && (
          <TextInput
            label="Provider id"
            description="e.g. openai"
            required
            data-autofocus
            {...form.getInputProps('providerId')}
          />
        )}
        <TextInput
          label="Base URL"
          description="https (plain http only for localhost); no user name or password in it"
          required
          data-autofocus={providerId !== null || undefined}
          {...form.getInputProps('baseUrl')}
        />
        <PasswordInput label="Auth token" required {...SECRET_INPUT} {...form.getInputProps('authToken')} />
        <PasswordInput label="Vendor API key (optional)" {...SECRET_INPUT} {...form.getInputProps('vendorApiKey')} />
        <SecretsFooter
          label={providerId === null ? 'Create connection' : 'Rotate'}
          pending={pending}
          error={error}
          onCancel={onClose}
        />
      </Stack>
    </form>
  );
}

/** Creates a BYOK connection (`providerId` null) or seals a new version of one; the form leaves with the dialog. */
export function ProviderConnectionDialog({
  opened,
  providerId,
  onClose,
}: {
  opened: boolean;
  providerId: string | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={providerId === null ? 'Add a provider connection' : `Rotate ${providerId}`}
      centered
    >
      <ProviderForm providerId={providerId} onClose={onClose} />
    </Modal>
  );
}
