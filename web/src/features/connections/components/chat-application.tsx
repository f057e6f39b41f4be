import { formatDateTime } from '../../../lib/format';
import {
  Button,
  Code,
  Group,
  Modal,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { ConfirmAction } from '../../../components/confirm-action';
import { QueryError } from '../../../components/query-error';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useDisableChatApplication } from '../api/disable-chat-application';
import { useChatApplication } from '../api/get-chat-application';
import { usePutChatApplication } from '../api/put-chat-application';
import { KeyIdText, SECRET_INPUT, SecretsFooter, StatusBadge, useSecretSubmit, VersionText } from './connection-parts';

function ChatApplicationForm({ creating, onClose }: { creating: boolean; onClose: () => void }) {
  const { org } = useOrg();
  const put = usePutChatApplication();
  const { pending, error, submit } = useSecretSubmit(true, onClose);
  const form = useForm({
    initialValues: { appId: '', botOpenId: '', appSecret: '', verificationToken: '', encryptKey: '' },
    validate: {
      appId: (v) => (v.trim() ? null : 'Enter the app id'),
      botOpenId: (v) => (v.trim() ? null : "Enter the bot's open id"),
      appSecret: (v) => (v ? null : 'Enter the app secret'),
    },
  });
  const onSubmit = form.onSubmit((v) =>
    submit(
      () =>
        put
          .mutateAsync({
            params: { path: { orgSlug: org.slug } },
            body: {
              appId: v.appId.trim(),
              botOpenId: v.botOpenId.trim(),
              appSecret: v.appSecret,
              ...(v.verificationToken ? { verificationToken: v.verificationToken } : {}),
              ...(v.encryptKey ? { encryptKey: v.encryptKey } : {}),
            },
          })
          .then((c) => notifySuccess(`Chat application ${c.appFingerprint}: version ${c.activeVersion} is active`)),
      () => {
        form.setValues({ appSecret: '', verificationToken: '', encryptKey: '' });
        put.reset();
      },
    ),
  );
  return (
    <form onSubmit={onSubmit} method="post" noValidate>
      <Stack>
        <TextInput label="App id" required data-autofocus {...form.getInputProps('appId')} />
        <TextInput label="Bot open id" required {...form.getInputProps('botOpenId')} />
        <PasswordInput label="App secret" required {...SECRET_INPUT} {...form.getInputProps('appSecret')} />
        <PasswordInput
          label="Verification token (optional)"
          {...SECRET_INPUT}
          {...form.getInputProps('verificationToken')}
        />
        <PasswordInput label="Encrypt key (optional)" {...SECRET_INPUT} {...form.getInputProps('encryptKey')} />
        <SecretsFooter label={creating ? 'Connect' : 'Rotate'} pending={pending} error={error} onCancel={onClose} />
      </Stack>
    </form>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

/** The organization's one chat application: its redacted fingerprint and state; create, rotate or disable it. */
export function ChatApplication() {
  const { org } = useOrg();
  const query = useChatApplication(org.slug);
  const disable = useDisableChatApplication();
  const [opened, { open, close }] = useDisclosure(false);
  const connection = query.data?.connection ?? null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="chat-app-title">
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id="chat-app-title">
            Chat application
          </Title>
          {!query.isPending && !query.isError && (
            <Group gap="xs">
              <Button size="sm" variant={connection ? 'default' : 'filled'} onClick={open}>
                {connection ? 'Rotate credentials' : 'Connect the chat application'}
              </Button>
              {connection && (
                <ConfirmAction
                  label="Disable"
                  ariaLabel="Disable the chat application"
                  title="Disable the chat application?"
                  message={
                    'The agents stop answering in the chat platform at once. The credential versions are kept; ' +
                    'rotating makes the connection active again.'
                  }
                  confirmLabel="Disable connection"
                  buttonProps={{ size: 'sm' }}
                  disabled={connection.status === 'DISABLED'}
                  onConfirm={() =>
                    disable
                      .mutateAsync({ params: { path: { orgSlug: org.slug } } })
                      .then((c) => notifySuccess(`The chat application is ${c.status}`))
                  }
                />
              )}
            </Group>
          )}
        </Group>
        {query.isError && <QueryError error={query.error} />}
        {query.isPending && <Text size="sm">Loading…</Text>}
        {query.isSuccess && connection === null && (
          <Text size="sm" c="dimmed">
            No chat application is connected yet.
          </Text>
        )}
        {connection && (
          <SimpleGrid cols={{ base: 2, sm: 5 }}>
            <Field label="App id (redacted)">
              <Code>{connection.appFingerprint}</Code>
            </Field>
            <Field label="Status">
              <StatusBadge status={connection.status} />
            </Field>
            <Field label="Version">
              <VersionText version={connection.activeVersion} />
            </Field>
            <Field label="Key id">
              <KeyIdText keyId={connection.keyId} />
            </Field>
            <Field label="Updated">
              <Text size="sm">{formatDateTime(connection.updatedAt)}</Text>
            </Field>
          </SimpleGrid>
        )}
      </Stack>
      <Modal
        opened={opened}
        onClose={close}
        title={connection ? 'Rotate the chat application' : 'Connect the chat application'}
        centered
      >
        <ChatApplicationForm creating={connection === null} onClose={close} />
      </Modal>
    </Paper>
  );
}
