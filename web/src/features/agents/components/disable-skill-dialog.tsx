import { plural } from '../../../lib/units';
import { List, Modal, Stack, Text } from '@mantine/core';
import { DialogFooter, useDialogAction } from '../../../components/dialog-action';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useUpdateAgentSkill } from '../api/update-agent-skill';
import type { Role, Skill } from './library-tree';

/**
 * Disabling a skill archives, in the same transaction, every open session of every role bound to
 * it: the dialog names those roles before anything happens.
 */
export function DisableSkillDialog({
  skill,
  roles,
  onClose,
}: {
  skill: Skill | null;
  roles: readonly Role[];
  onClose: () => void;
}) {
  const { org } = useOrg();
  const update = useUpdateAgentSkill();
  const opened = skill !== null;
  const { pending, error, run } = useDialogAction(opened, onClose);
  const bound = (skill?.boundRoleIds ?? []).map(
    (id) => roles.find((r) => r.roleId === id) ?? { roleId: id, label: id },
  );
  const confirm = () =>
    run(async () => {
      if (!skill) return;
      await update.mutateAsync({ params: { path: { orgSlug: org.slug, name: skill.name } }, body: { disabled: true } });
      notifySuccess(
        bound.length
          ? `Disabled ${skill.name}; the open sessions of ${plural(bound.length, 'role')} were archived`
          : `Disabled ${skill.name}`,
      );
    });
  return (
    <Modal opened={opened} onClose={onClose} title={skill ? `Disable ${skill.name}?` : 'Disable'} centered>
      <Stack data-testid="disable-skill-consequence">
        {bound.length > 0 ? (
          <>
            <Text>
              Every open session of {bound.length === 1 ? 'this role' : `these ${bound.length} roles`}, bound to{' '}
              {skill?.name}, is archived now:
            </Text>
            <List>
              {bound.map((r) => (
                <List.Item key={r.roleId}>
                  {r.label} (<code>{r.roleId}</code>)
                </List.Item>
              ))}
            </List>
          </>
        ) : (
          <Text>No role is bound to {skill?.name}, so no session is archived.</Text>
        )}
        <Text size="sm" c="dimmed">
          The skill stays installed and bound; the runtime skips it until it is enabled again.
        </Text>
        <DialogFooter
          label="Disable skill"
          pending={pending}
          color="red"
          error={error}
          errorTitle="Not disabled"
          onCancel={onClose}
          onConfirm={confirm}
        />
      </Stack>
    </Modal>
  );
}
