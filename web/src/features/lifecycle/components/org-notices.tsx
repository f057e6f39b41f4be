import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { DialogError } from '../../../components/dialog-action';
import { canHandleOwners, useOrg } from '../../../lib/authorization';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useAcceptTransfer, useCancelTransfer, useOwnershipTransfers, useRestoreOrganization } from '../api';

/**
 * What every member of the organization must see on every screen: that it is being deleted (with
 * the restore for an OWNER), and an ownership offered to them (to accept or decline).
 */
export function OrgNotices() {
  return (
    <Stack gap="sm" mb="md">
      <DeletingNotice />
      <OfferedToYou />
    </Stack>
  );
}

function DeletingNotice() {
  const { org } = useOrg();
  const restore = useRestoreOrganization();
  if (org.status !== 'DELETING') return null;
  return (
    <Alert color="red" title="This organization is being deleted" role="status">
      <Stack gap="xs">
        <Text size="sm">
          Nothing in it can change. It is removed for good on{' '}
          {org.purgeAt ? formatDateTime(org.purgeAt) : 'its purge date'} unless an OWNER restores it before.
        </Text>
        {canHandleOwners(org.role) && (
          <Group>
            <Button
              size="xs"
              loading={restore.isPending}
              onClick={() =>
                restore.mutate(
                  { params: { path: { orgSlug: org.slug } } },
                  { onSuccess: () => notifySuccess(`${org.name} is restored`) },
                )
              }
            >
              Restore the organization
            </Button>
          </Group>
        )}
        <DialogError error={restore.error} title="Not restored" />
      </Stack>
    </Alert>
  );
}

function OfferedToYou() {
  const { org, me } = useOrg();
  const transfers = useOwnershipTransfers(org.slug);
  const accept = useAcceptTransfer();
  const decline = useCancelTransfer();
  const [error, setError] = useState<unknown>(null);
  const offer = transfers.data?.transfers.find((t) => t.status === 'pending' && t.to.userId === me.user.id);
  if (!offer) return null;
  const path = { params: { path: { orgSlug: org.slug, transferId: offer.id } } };
  const settle = { onError: setError, onSuccess: () => setError(null) };
  return (
    <Alert color="blue" title="You are offered the ownership" role="status">
      <Stack gap="xs">
        <Text size="sm">
          {offer.from.displayName} offers you the OWNER role of {org.name} (since {formatDateTime(offer.createdAt)}).
          When you accept, you become an OWNER and they become an ADMIN.
        </Text>
        <Group>
          <Button
            size="xs"
            loading={accept.isPending}
            disabled={decline.isPending}
            onClick={() => accept.mutate(path, { ...settle, onSuccess: () => notifySuccess('You are an OWNER now') })}
          >
            Accept the ownership
          </Button>
          <Button
            size="xs"
            variant="default"
            loading={decline.isPending}
            disabled={accept.isPending}
            onClick={() => decline.mutate(path, { ...settle, onSuccess: () => notifySuccess('Offer declined') })}
          >
            Decline
          </Button>
        </Group>
        <DialogError error={error} />
      </Stack>
    </Alert>
  );
}
