import { Alert, Button, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmAction } from '../../../components/confirm-action';
import { DialogFooter, useDialogAction } from '../../../components/dialog-action';
import { QueryError } from '../../../components/query-error';
import { SelectField } from '../../../components/select-field';
import { errorMessage } from '../../../lib/api-client';
import { canHandleOwners, useOrg } from '../../../lib/authorization';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useMembers } from '../../../lib/queries/get-members';
import {
  useCancelTransfer,
  useDeleteOrganization,
  useOfferOwnership,
  useOwnershipTransfers,
  useRenameOrganization,
} from '../api';

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

/**
 * The organization's name and slug, its ownership and its deletion: an OWNER's acts. Admins see
 * the section and who may act, never a control that can only fail.
 */
export function LifecycleSection() {
  const { org } = useOrg();
  const owner = canHandleOwners(org.role);
  return (
    <Paper withBorder p="md" mb="md" component="section" aria-labelledby="lifecycle-title">
      <Stack>
        <Title order={2} size="h4" id="lifecycle-title">
          Name, ownership and deletion
        </Title>
        {!owner && (
          <Text size="sm" c="dimmed">
            Only an OWNER of the organization may rename it, offer its ownership or delete it.
          </Text>
        )}
        {owner && (
          <>
            <RenameForm />
            <TransferOwnership />
            <DeleteOrganization />
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** Name and slug; a new slug asks first, as links and API clients using the old one move with it. */
function RenameForm() {
  const { org } = useOrg();
  const navigate = useNavigate();
  const rename = useRenameOrganization();
  const [name, setName] = useState(org.name);
  const [slug, setSlug] = useState(org.slug);
  const [confirming, { open, close }] = useDisclosure(false);
  useEffect(() => {
    setName(org.name);
    setSlug(org.slug);
  }, [org.name, org.slug]);
  const dirty = name.trim() !== org.name || slug !== org.slug;
  const slugProblem = SLUG.test(slug)
    ? null
    : 'Lower-case letters, digits and hyphens, starting with a letter or digit';
  const save = async () => {
    const answer = await rename.mutateAsync({
      params: { path: { orgSlug: org.slug } },
      body: { ...(name.trim() !== org.name && { name: name.trim() }), ...(slug !== org.slug && { slug }) },
    });
    notifySuccess(`Renamed to ${answer.organization.name}`);
    if (answer.organization.slug !== org.slug) navigate(`/o/${answer.organization.slug}/settings`);
  };
  return (
    <form
      aria-label="Rename the organization"
      onSubmit={(e) => {
        e.preventDefault();
        if (slug !== org.slug) open();
        else void save().catch(() => undefined);
      }}
    >
      <Stack gap="xs">
        <Group align="flex-start" grow preventGrowOverflow={false} wrap="wrap">
          <TextInput
            label="Name"
            required
            value={name}
            maxLength={200}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <TextInput
            label="Slug (in links and API paths)"
            required
            value={slug}
            error={slugProblem}
            onChange={(e) => setSlug(e.currentTarget.value.trim())}
          />
        </Group>
        {rename.isError && !confirming && (
          <Alert color="red" title="Not renamed" role="alert">
            {errorMessage(rename.error)}
          </Alert>
        )}
        <Group>
          <Button
            type="submit"
            loading={rename.isPending && !confirming}
            disabled={!dirty || !name.trim() || !!slugProblem}
          >
            Rename
          </Button>
        </Group>
      </Stack>
      <SlugChangeDialog opened={confirming} onClose={close} from={org.slug} to={slug} onConfirm={save} />
    </form>
  );
}

function SlugChangeDialog({
  opened,
  onClose,
  from,
  to,
  onConfirm,
}: {
  opened: boolean;
  onClose: () => void;
  from: string;
  to: string;
  onConfirm: () => Promise<unknown>;
}) {
  const { pending, error, run } = useDialogAction(opened, onClose);
  return (
    <Modal opened={opened} onClose={onClose} title="Change the slug?" centered>
      <Stack>
        <Text>
          Links and API paths change from <code>{from}</code> to <code>{to}</code>. For 30 days the old slug still leads
          here; after that it may be taken by another organization.
        </Text>
        <DialogFooter
          label="Change the slug"
          pending={pending}
          error={error}
          onCancel={onClose}
          onConfirm={() => run(onConfirm)}
        />
      </Stack>
    </Modal>
  );
}

/** Offer the OWNER role to a member; it changes nothing until they accept. */
function TransferOwnership() {
  const { org, me } = useOrg();
  const members = useMembers(org.slug);
  const transfers = useOwnershipTransfers(org.slug);
  const offer = useOfferOwnership();
  const cancel = useCancelTransfer();
  const [toUserId, setToUserId] = useState<string | null>(null);
  if (members.isError) return <QueryError error={members.error} title="Could not load the members" />;
  if (transfers.isError) return <QueryError error={transfers.error} title="Could not load the transfers" />;
  const pending = transfers.data?.transfers.find((t) => t.status === 'pending');
  const candidates = (members.data?.members ?? [])
    .filter((m) => m.role !== 'OWNER' && m.userId !== me.user.id)
    .map((m) => ({ value: m.userId, label: `${m.displayName} (${m.role})` }));
  return (
    <Stack gap="xs" aria-label="Transfer the ownership" role="group">
      <Title order={3} size="h5">
        Transfer the ownership
      </Title>
      {pending ? (
        <Group justify="space-between" wrap="wrap">
          <Text size="sm">
            Offered to {pending.to.displayName} on {formatDateTime(pending.createdAt)}; they become an OWNER and you an
            ADMIN when they accept.
          </Text>
          <ConfirmAction
            label="Withdraw the offer"
            title="Withdraw the ownership offer?"
            message={`${pending.to.displayName} will no longer be able to accept it.`}
            confirmLabel="Withdraw"
            onConfirm={() =>
              cancel
                .mutateAsync({ params: { path: { orgSlug: org.slug, transferId: pending.id } } })
                .then(() => notifySuccess('Offer withdrawn'))
            }
          />
        </Group>
      ) : (
        <Group align="flex-end" wrap="wrap">
          <SelectField
            label="Member"
            placeholder={candidates.length ? 'Pick a member' : 'No member to offer it to'}
            searchable
            data={candidates}
            value={toUserId}
            onChange={setToUserId}
            w={{ base: '100%', xs: 280 }}
          />
          <ConfirmAction
            label="Offer the ownership"
            buttonProps={{ color: 'blue', variant: 'filled', size: 'sm' }}
            disabled={!toUserId}
            title="Offer the ownership?"
            message="When they accept, they become an OWNER and you become an ADMIN."
            confirmLabel="Offer"
            onConfirm={() =>
              offer.mutateAsync({ params: { path: { orgSlug: org.slug } }, body: { toUserId: toUserId! } }).then(() => {
                setToUserId(null);
                notifySuccess('Ownership offered');
              })
            }
          />
        </Group>
      )}
    </Stack>
  );
}

/** Deleting starts 30 days in which the organization is read-only and can be restored. */
function DeleteOrganization() {
  const { org } = useOrg();
  const remove = useDeleteOrganization();
  if (org.status === 'DELETING') return null;
  return (
    <Stack gap="xs" role="group" aria-label="Delete the organization">
      <Title order={3} size="h5">
        Delete the organization
      </Title>
      <Text size="sm" c="dimmed">
        For 30 days nothing can change in it and an OWNER can restore it; then every row and file of it is removed for
        good.
      </Text>
      <Group>
        <ConfirmAction
          label="Delete the organization"
          buttonProps={{ size: 'sm' }}
          title={`Delete ${org.name}?`}
          message="It becomes read-only at once and is removed for good in 30 days unless an OWNER restores it."
          confirmLabel="Delete"
          onConfirm={() =>
            remove
              .mutateAsync({ params: { path: { orgSlug: org.slug } } })
              .then(() => notifySuccess(`${org.name} will be removed in 30 days`))
          }
        />
      </Group>
    </Stack>
  );
}
