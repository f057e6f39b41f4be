import { formatDateTime } from '../../../lib/format';
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { DialogFooter } from '../../../components/dialog-action';
import { SelectField } from '../../../components/select-field';
import { errorMessage, type Schemas } from '../../../lib/api-client';
import { assignableRoles, type OrgRole, useOrg } from '../../../lib/authorization';
import { useTeams } from '../../../lib/queries/get-teams';
import { useCreateInvitation } from '../api/create-invitation';

type Created = Schemas['CreatedInvitation'];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The Invite action of Members: a dialog asking for the role, teams, an optional email and the
 * expiry, then showing the link once with a copy button. Closing it forgets the link.
 */
export function InviteButton() {
  const { org } = useOrg();
  const [opened, { open, close }] = useDisclosure(false);
  const [created, setCreated] = useState<Created | null>(null);
  const create = useCreateInvitation();
  const teams = useTeams(org.slug, opened);
  const form = useForm({
    initialValues: {
      role: 'MEMBER' as OrgRole,
      teamIds: [] as string[],
      email: '',
      expiresInDays: 7 as number | string,
    },
    validate: {
      email: (v) => (v.trim() === '' || EMAIL.test(v.trim()) ? null : 'Enter an email address, or leave it empty'),
      expiresInDays: (v) =>
        Number.isInteger(Number(v)) && Number(v) >= 1 && Number(v) <= 30 ? null : 'From 1 to 30 days',
    },
  });
  const start = () => {
    form.reset();
    create.reset();
    setCreated(null);
    open();
  };
  const submit = form.onSubmit((v) =>
    create.mutate(
      {
        params: { path: { orgSlug: org.slug } },
        body: {
          role: v.role,
          teamIds: v.teamIds,
          expiresInDays: Number(v.expiresInDays),
          ...(v.email.trim() ? { email: v.email.trim() } : {}),
        },
      },
      { onSuccess: setCreated },
    ),
  );
  const finish = () => {
    setCreated(null);
    close();
  };
  const teamOptions = (teams.data?.teams ?? []).map((t) => ({ value: t.id, label: t.name }));
  return (
    <>
      <Button onClick={start}>Invite</Button>
      <Modal opened={opened} onClose={finish} title={created ? 'Invitation link' : 'Invite someone'} centered>
        {created ? (
          <Stack>
            <Alert color="yellow" title="Copy the link now">
              You will not see this link again. Send it to the person you invite; it works once, until{' '}
              {formatDateTime(created.expiresAt)}.
            </Alert>
            {/* Focusable: a long link may scroll, and a scrolling region must be reachable by keyboard. */}
            <Code block data-testid="invitation-link" tabIndex={0} style={{ wordBreak: 'break-all' }}>
              {created.url}
            </Code>
            <Group justify="space-between">
              <CopyButton value={created.url}>
                {({ copied, copy }) => (
                  <Button variant={copied ? 'light' : 'filled'} onClick={copy}>
                    {copied ? 'Copied' : 'Copy link'}
                  </Button>
                )}
              </CopyButton>
              <Button variant="default" onClick={finish}>
                Done
              </Button>
            </Group>
          </Stack>
        ) : (
          <form onSubmit={submit}>
            <Stack>
              <SelectField
                label="Role"
                data={assignableRoles(org.role)}
                data-autofocus
                {...form.getInputProps('role')}
              />
              <MultiSelect
                label="Teams"
                placeholder={teams.isPending ? 'Loading teams…' : 'None'}
                data={teamOptions}
                searchable
                clearable
                {...form.getInputProps('teamIds')}
              />
              {teams.isError && (
                <Text size="sm" c="red">
                  The teams did not load: {errorMessage(teams.error)}
                </Text>
              )}
              <TextInput
                label="Email (optional)"
                description="When given, only someone signed in with this email address, verified, can accept."
                type="email"
                {...form.getInputProps('email')}
              />
              <NumberInput
                label="Expires after (days)"
                min={1}
                max={30}
                allowDecimal={false}
                {...form.getInputProps('expiresInDays')}
              />
              <DialogFooter
                label="Create link"
                pending={create.isPending}
                error={create.error}
                errorTitle="No invitation was made"
                onCancel={finish}
              />
            </Stack>
          </form>
        )}
      </Modal>
    </>
  );
}
