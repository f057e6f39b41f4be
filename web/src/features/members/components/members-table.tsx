import { formatDate } from '../../../lib/format';
import { Alert, Button, Checkbox, Group, Loader, Paper, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { memo, useDeferredValue, useMemo, useState } from 'react';
import { BulkProgress, BulkSummary } from '../../../components/bulk-summary';
import { ConfirmAction } from '../../../components/confirm-action';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { QueryError } from '../../../components/query-error';
import { SelectField } from '../../../components/select-field';
import { type Column, VirtualTable } from '../../../components/virtual-table';
import { errorCode, errorMessage, type Schemas } from '../../../lib/api-client';
import { assignableRoles, canHandleOwners, type OrgRole, useOrg } from '../../../lib/authorization';
import { useBulkRun } from '../../../lib/bulk';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useMembers } from '../../../lib/queries/get-members';
import { useRevokeMember } from '../api/revoke-member';
import { UnmanagedProjectsDialog, useShowUnmanaged } from '../../../components/unmanaged-projects';
import { useSignOutMember } from '../api/sign-out-member';
import { useUpdateMemberRole } from '../api/update-member-role';
import { RevokeMemberAction } from './revoke-member-dialog';

type Member = Schemas['OrgMember'];

const LAST_OWNER_HELP =
  'An organization always keeps at least one active OWNER. ' +
  'Make another member an OWNER first, then change or revoke this one.';

// Memoized: a row's select is the costliest part of a row, and typing in the search or ticking a
// row re-renders the table while the member behind each row is the same object.
const RoleCell = memo(function RoleCell({ member }: { member: Member }) {
  const { org, me } = useOrg();
  const update = useUpdateMemberRole();
  const ownerOnly = member.role === 'OWNER' && !canHandleOwners(org.role);
  const choices = assignableRoles(org.role);
  const data = choices.includes(member.role) ? choices : [member.role, ...choices];
  return (
    <Group gap="xs" wrap="nowrap">
      <SelectField
        aria-label={`Role of ${member.displayName}`}
        size="xs"
        w={110}
        value={member.role}
        data={data}
        disabled={ownerOnly || update.isPending}
        title={ownerOnly ? 'Only an OWNER can change the role of an OWNER' : undefined}
        onChange={(role) => {
          update.mutate(
            { params: { path: { orgSlug: org.slug, userId: member.userId } }, body: { role } },
            {
              onSuccess: (m) => notifySuccess(`${m.displayName} is now ${m.role}`),
              onError: (error) =>
                notifyError(
                  error,
                  errorCode(error) === 'last_owner'
                    ? `${member.displayName} is the last OWNER`
                    : 'The role was not changed',
                ),
            },
          );
        }}
      />
      {update.isPending && <Loader size="xs" aria-label="Saving" />}
      {member.userId === me.user.id && (
        <Text size="xs" c="dimmed">
          you
        </Text>
      )}
    </Group>
  );
});

function RevokeCell({ member }: { member: Member }) {
  const { org } = useOrg();
  const revoke = useRevokeMember();
  const showUnmanaged = useShowUnmanaged();
  const ownerOnly = member.role === 'OWNER' && !canHandleOwners(org.role);
  return (
    <RevokeMemberAction
      member={member}
      disabled={ownerOnly}
      onRevoke={() =>
        revoke
          .mutateAsync({ params: { path: { orgSlug: org.slug, userId: member.userId } } })
          .then((answer) => {
            notifySuccess(`Revoked ${member.displayName}`);
            showUnmanaged(answer.unmanagedProjects);
          })
          .catch((error: unknown) => {
            throw errorCode(error) === 'last_owner'
              ? { error: { code: 'last_owner', message: `${errorMessage(error)} ${LAST_OWNER_HELP}` } }
              : error;
          })
      }
    />
  );
}

/** Ends every session of the member, wherever they are signed in; their membership stays. */
function SignOutCell({ member }: { member: Member }) {
  const { org } = useOrg();
  const signOut = useSignOutMember();
  const ownerOnly = member.role === 'OWNER' && !canHandleOwners(org.role);
  return (
    <ConfirmAction
      // Short enough for a phone's row; the accessible name and the dialog say "everywhere".
      label="Sign out"
      ariaLabel={`Sign out ${member.displayName} everywhere`}
      title={`Sign ${member.displayName} out everywhere?`}
      message={
        `Every browser ${member.displayName} is signed in on is signed out now; they stay a member of ` +
        `${org.name} and can sign in again. Their API tokens keep working until revoked.`
      }
      confirmLabel="Sign out everywhere"
      buttonProps={{ variant: 'default' }}
      disabled={ownerOnly}
      onConfirm={() =>
        signOut
          .mutateAsync({ params: { path: { orgSlug: org.slug, userId: member.userId } } })
          .then(({ ended }) =>
            notifySuccess(`Signed ${member.displayName} out of ${ended} session${ended === 1 ? '' : 's'}`),
          )
      }
    />
  );
}

const memberColumns: Column<Member>[] = [
  {
    key: 'name',
    header: 'Member',
    render: (m) => (
      <Stack gap={0}>
        <Text size="sm" fw={500}>
          {m.displayName}
        </Text>
        <Text size="xs" c="dimmed">
          {m.imOpenId}
        </Text>
      </Stack>
    ),
  },
  { key: 'role', header: 'Role', render: (m) => <RoleCell member={m} />, width: 200 },
  {
    key: 'since',
    header: 'Member since',
    render: (m) => formatDate(m.createdAt),
    width: 130,
    wideOnly: true,
  },
  {
    key: 'actions',
    header: 'Actions',
    render: (m) => (
      // Rows are measured, so on a phone the two stack and the row grows.
      <Group gap={4} wrap="wrap">
        <RevokeCell member={m} />
        <SignOutCell member={m} />
      </Group>
    ),
    width: 120,
  },
];

/**
 * Several members at once: a new role for all, or revoke all. One request per member, in turn;
 * the summary then lists who changed and who the server refused, with its message.
 */
function MembersBulkBar({ selected, onDone }: { selected: Member[]; onDone: (unselect: string[]) => void }) {
  const { org } = useOrg();
  const update = useUpdateMemberRole();
  const revoke = useRevokeMember();
  const showUnmanaged = useShowUnmanaged();
  const bulk = useBulkRun();
  const choices = assignableRoles(org.role);
  const [role, setRole] = useState<OrgRole>(choices.includes('MEMBER') ? 'MEMBER' : choices[0]!);
  const [confirming, setConfirming] = useState(false);
  const identify = (m: Member) => ({ key: m.userId, label: m.displayName });
  const finish = (outcomes: { key: string; ok: boolean }[]) => onDone(outcomes.filter((o) => o.ok).map((o) => o.key));
  const path = (m: Member) => ({ params: { path: { orgSlug: org.slug, userId: m.userId } } });
  const changeRole = () =>
    bulk
      .run(`Changed role to ${role}`, selected, identify, (m) => update.mutateAsync({ ...path(m), body: { role } }))
      .then(finish);
  const revokeAll = () =>
    bulk
      .run('Revoked', selected, identify, (m) =>
        revoke.mutateAsync(path(m)).then((answer) => showUnmanaged(answer.unmanagedProjects)),
      )
      .then(finish);
  const running = bulk.progress !== null;
  return (
    <Stack gap="xs">
      {selected.length > 0 && (
        <Paper withBorder p="sm" role="region" aria-label="Selected members">
          <Group align="flex-end" wrap="wrap">
            <Text size="sm" fw={500}>
              {selected.length} selected
            </Text>
            <SelectField label="New role" size="xs" w={120} data={choices} value={role} onChange={setRole} />
            <Button size="xs" onClick={changeRole} loading={running} disabled={running}>
              Change role of {selected.length}
            </Button>
            <Button size="xs" color="red" variant="light" onClick={() => setConfirming(true)} disabled={running}>
              Revoke {selected.length}
            </Button>
            <Button size="xs" variant="subtle" onClick={() => onDone(selected.map((m) => m.userId))}>
              Clear selection
            </Button>
          </Group>
        </Paper>
      )}
      <BulkProgress progress={bulk.progress} />
      <BulkSummary report={bulk.report} onDismiss={bulk.dismiss} />
      <ConfirmDialog
        opened={confirming}
        title={`Revoke ${selected.length} members?`}
        message={
          `${selected.map((m) => m.displayName).join(', ')} lose access to ${org.name} now, ` +
          'with every team membership and project grant through it.'
        }
        confirmLabel={`Revoke ${selected.length}`}
        onClose={() => setConfirming(false)}
        onConfirm={revokeAll}
      />
    </Stack>
  );
}

/** The selection column: a checkbox per row, and one in the header for every row shown. */
function selectColumn(
  shown: Member[],
  selected: ReadonlySet<string>,
  setSelected: (next: Set<string>) => void,
): Column<Member> {
  const chosen = shown.filter((m) => selected.has(m.userId)).length;
  const toggle = (userId: string) => {
    const next = new Set(selected);
    if (next.has(userId)) next.delete(userId);
    else next.add(userId);
    setSelected(next);
  };
  const toggleShown = () => {
    const next = new Set(selected);
    for (const m of shown) {
      if (chosen === shown.length) next.delete(m.userId);
      else next.add(m.userId);
    }
    setSelected(next);
  };
  return {
    key: 'select',
    width: 44,
    header: (
      <Checkbox
        aria-label="Select every member shown"
        checked={shown.length > 0 && chosen === shown.length}
        indeterminate={chosen > 0 && chosen < shown.length}
        disabled={shown.length === 0}
        onChange={toggleShown}
      />
    ),
    render: (m) => (
      <Checkbox
        aria-label={`Select ${m.displayName}`}
        checked={selected.has(m.userId)}
        onChange={() => toggle(m.userId)}
      />
    ),
  };
}

/** Every active member: filtered in the browser, rendered virtually (5,000 rows stay fast). */
export function MembersTable() {
  const { org } = useOrg();
  const members = useMembers(org.slug);
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<'ALL' | OrgRole>('ALL');
  const needle = useDeferredValue(search.trim().toLowerCase());
  const rows = useMemo(
    () =>
      (members.data?.members ?? []).filter(
        (m) =>
          (role === 'ALL' || m.role === role) &&
          (!needle || m.displayName.toLowerCase().includes(needle) || m.imOpenId.toLowerCase().includes(needle)),
      ),
    [members.data, role, needle],
  );
  const chosen = (members.data?.members ?? []).filter((m) => selected.has(m.userId));
  const columns = [selectColumn(rows, selected, setSelected), ...memberColumns];
  const dropDone = (succeeded: string[]) =>
    setSelected((prev) => new Set([...prev].filter((userId) => !succeeded.includes(userId))));
  if (members.isError) return <QueryError error={members.error} />;
  return (
    <UnmanagedProjectsDialog>
      <Stack>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Search members"
            placeholder="Name or imOpenId"
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="role-filter-label">
              Filter by role
            </Text>
            <SegmentedControl
              aria-labelledby="role-filter-label"
              value={role}
              onChange={(v) => setRole(v as 'ALL' | OrgRole)}
              data={['ALL', 'OWNER', 'ADMIN', 'MEMBER'].map((v) => ({ value: v, label: v === 'ALL' ? 'All' : v }))}
            />
          </Stack>
        </Group>
        {!canHandleOwners(org.role) && (
          <Alert color="gray" variant="light">
            Only an OWNER can make someone an OWNER, change an OWNER's role or revoke an OWNER; those controls are
            disabled for you.
          </Alert>
        )}
        <Text size="sm" c="dimmed" aria-live="polite">
          {members.isPending ? 'Loading…' : `${rows.length} of ${members.data?.members.length ?? 0} members`}
        </Text>
        <MembersBulkBar selected={chosen} onDone={dropDone} />
        <VirtualTable
          label="Members"
          rows={rows}
          columns={columns}
          rowKey={(m) => m.userId}
          empty="No member matches."
        />
        <Text size="xs" c="dimmed">
          {LAST_OWNER_HELP}
        </Text>
      </Stack>
    </UnmanagedProjectsDialog>
  );
}
