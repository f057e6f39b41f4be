import { ActionIcon, Button, Fieldset, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { usePutCapabilityConnection } from '../api/put-capability-connection';
import { SECRET_INPUT, SecretsFooter, useSecretSubmit } from './connection-parts';
import { SelectField } from '../../../components/select-field';

type Row = Schemas['CapabilityConnectionRow'];
type Header = { key: number; name: string; value: string };

const CAPABILITY_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

let nextKey = 0;
const emptyHeader = (): Header => ({ key: nextKey++, name: '', value: '' });

/** Problems with the header list the server would refuse too, said before anything is sent. */
function headersProblem(headers: Header[]): string | null {
  const seen = new Set<string>();
  for (const h of headers) {
    if (!h.name.trim() && !h.value) continue;
    if (!HEADER_NAME.test(h.name.trim())) return `"${h.name}" is no HTTP header name`;
    const lower = h.name.trim().toLowerCase();
    if (seen.has(lower)) return `The header ${h.name.trim()} is given twice`;
    seen.add(lower);
  }
  return null;
}

function CapabilityForm({ row, onClose }: { row: Row | null; onClose: () => void }) {
  const { org } = useOrg();
  const put = usePutCapabilityConnection();
  const { pending, error, submit } = useSecretSubmit(true, onClose);
  const form = useForm({
    initialValues: {
      capabilityId: row?.capabilityId ?? '',
      label: row?.label ?? '',
      kind: (row?.kind ?? 'mcp') as Schemas['CapabilityKind'],
      endpointUrl: row?.endpointUrl ?? '',
      headers: [emptyHeader()],
    },
    validate: {
      capabilityId: (v) => (CAPABILITY_ID.test(v) ? null : 'Lowercase letters, digits and dashes (up to 63)'),
      label: (v) => (v.trim() ? null : 'Enter a label'),
      endpointUrl: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? null : 'An https URL (http only for localhost)'),
      headers: headersProblem,
    },
  });
  const onSubmit = form.onSubmit((v) => {
    const headers = Object.fromEntries(
      v.headers.filter((h) => h.name.trim() || h.value).map((h) => [h.name.trim(), h.value]),
    );
    return submit(
      () =>
        put
          .mutateAsync({
            params: { path: { orgSlug: org.slug, capabilityId: v.capabilityId } },
            body: { label: v.label.trim(), kind: v.kind, endpointUrl: v.endpointUrl.trim(), headers },
          })
          .then((r) => notifySuccess(`${r.label}: version ${r.activeVersion} is active`)),
      () => {
        form.setFieldValue(
          'headers',
          form.getValues().headers.map((h) => ({ ...h, value: '' })),
        );
        put.reset();
      },
    );
  });
  const headers = form.getValues().headers;
  return (
    <form onSubmit={onSubmit} method="post" noValidate>
      <Stack>
        {row === null && (
          <TextInput
            label="Capability id"
            description="Lowercase letters, digits and dashes, e.g. web-search"
            required
            data-autofocus
            {...form.getInputProps('capabilityId')}
          />
        )}
        <TextInput
          label="Label"
          description="Names the capability here and in the usage breakdown"
          required
          data-autofocus={row !== null || undefined}
          {...form.getInputProps('label')}
        />
        <SelectField
          label="Kind"
          data={[
            { value: 'mcp', label: 'MCP server' },
            { value: 'http', label: 'HTTP API' },
          ]}
          {...form.getInputProps('kind')}
        />
        <TextInput
          label="Endpoint URL"
          description="https (plain http only for localhost); no user name or password in it"
          required
          {...form.getInputProps('endpointUrl')}
        />
        <Fieldset legend="Headers (values are secrets)" variant="filled">
          <Stack gap="xs">
            <Text size="xs" c="dimmed">
              {row === null
                ? 'Sent with every call to the endpoint, e.g. Authorization.'
                : 'Saving replaces every header. The stored values are never shown: type each header again.'}
            </Text>
            {headers.map((h, index) => (
              <Group key={h.key} gap="xs" align="flex-end" wrap="nowrap">
                <TextInput
                  label={`Header ${index + 1} name`}
                  placeholder="Authorization"
                  style={{ flex: 1 }}
                  {...form.getInputProps(`headers.${index}.name`)}
                />
                <PasswordInput
                  label={`Header ${index + 1} value`}
                  style={{ flex: 1 }}
                  {...SECRET_INPUT}
                  {...form.getInputProps(`headers.${index}.value`)}
                />
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label={`Remove header ${index + 1}`}
                  onClick={() => form.removeListItem('headers', index)}
                >
                  ×
                </ActionIcon>
              </Group>
            ))}
            {form.errors.headers && (
              <Text size="sm" c="red" role="alert">
                {form.errors.headers}
              </Text>
            )}
            <Group>
              <Button
                size="xs"
                variant="default"
                disabled={headers.length >= 50}
                onClick={() => form.insertListItem('headers', emptyHeader())}
              >
                Add a header
              </Button>
            </Group>
          </Stack>
        </Fieldset>
        <SecretsFooter
          label={row === null ? 'Create connection' : 'Rotate'}
          pending={pending}
          error={error}
          onCancel={onClose}
        />
      </Stack>
    </form>
  );
}

/** Creates a capability connection (`row` null) or seals a new version of one with a new set of headers. */
export function CapabilityConnectionDialog({
  opened,
  row,
  onClose,
}: {
  opened: boolean;
  row: Row | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={row === null ? 'Add a capability connection' : `Rotate ${row.label}`}
      centered
      size="lg"
    >
      <CapabilityForm row={row} onClose={onClose} />
    </Modal>
  );
}
