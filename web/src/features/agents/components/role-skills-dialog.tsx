import { Modal, MultiSelect, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { DialogFooter, useDialogAction } from '../../../components/dialog-action';
import { QueryError } from '../../../components/query-error';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useAgentSkills } from '../api/get-agent-skills';
import { usePutAgentRoleSkills } from '../api/put-agent-role-skills';
import type { Role } from './library-tree';

/** Chooses the whole set of skills bound to a role; saved in one request. */
export function RoleSkillsDialog({
  opened,
  role,
  onClose,
}: {
  opened: boolean;
  role: Role | null;
  onClose: () => void;
}) {
  const { org } = useOrg();
  const skills = useAgentSkills(org.slug);
  const put = usePutAgentRoleSkills();
  const { pending, error, run } = useDialogAction(opened, onClose);
  const [chosen, setChosen] = useState<string[]>([]);
  useEffect(() => {
    if (opened && role) setChosen(role.skillNames);
  }, [opened, role]);
  const data = useMemo(() => {
    const installed = (skills.data?.skills ?? []).map((s) => ({
      value: s.name,
      label: s.disabledAt ? `${s.name} (disabled)` : s.name,
    }));
    const known = new Set(installed.map((o) => o.value));
    return [...installed, ...chosen.filter((n) => !known.has(n)).map((n) => ({ value: n, label: n }))];
  }, [skills.data, chosen]);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!role) return;
    run(async () => {
      const saved = await put.mutateAsync({
        params: { path: { orgSlug: org.slug, roleId: role.roleId } },
        body: { skillNames: chosen },
      });
      notifySuccess(
        saved.skillNames.length
          ? `${role.label} now has ${saved.skillNames.length} skill${saved.skillNames.length === 1 ? '' : 's'}`
          : `${role.label} has no skill now`,
      );
    });
  };
  return (
    <Modal opened={opened} onClose={onClose} title={role ? `Skills of ${role.label}` : 'Skills'} centered>
      <form onSubmit={submit}>
        <Stack>
          {skills.isError && <QueryError error={skills.error} title="The skills could not be loaded" />}
          <MultiSelect
            label="Bound skills"
            placeholder={skills.isPending ? 'Loading skills…' : chosen.length ? undefined : 'Type to search skills'}
            searchable
            clearable
            data={data}
            value={chosen}
            onChange={setChosen}
            nothingFoundMessage="No installed skill matches"
            comboboxProps={{ withinPortal: true }}
            data-autofocus
          />
          <Text size="xs" c="dimmed">
            A disabled skill stays bound; the runtime skips it while it is disabled.
          </Text>
          <DialogFooter
            label="Save skills"
            pending={pending}
            error={error}
            errorTitle="Skills not saved"
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
