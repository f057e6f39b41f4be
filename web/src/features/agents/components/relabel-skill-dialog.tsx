import { Modal, Stack, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { DialogFooter, useDialogAction } from '../../../components/dialog-action';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useUpdateAgentSkill } from '../api/update-agent-skill';
import type { Skill } from './library-tree';

/** Changes a skill's label (description) only; the next install takes it from SKILL.md again. */
export function RelabelSkillDialog({ skill, onClose }: { skill: Skill | null; onClose: () => void }) {
  const { org } = useOrg();
  const update = useUpdateAgentSkill();
  const opened = skill !== null;
  const { pending, error, run } = useDialogAction(opened, onClose);
  const [description, setDescription] = useState('');
  useEffect(() => {
    if (skill) setDescription(skill.description ?? '');
  }, [skill]);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!skill) return;
    run(async () => {
      await update.mutateAsync({ params: { path: { orgSlug: org.slug, name: skill.name } }, body: { description } });
      notifySuccess(`Relabelled ${skill.name}`);
    });
  };
  return (
    <Modal opened={opened} onClose={onClose} title={skill ? `Relabel ${skill.name}` : 'Relabel'} centered>
      <form onSubmit={submit}>
        <Stack>
          <Textarea
            label="Description"
            description={`${description.length} of 2,000 characters. A new version's SKILL.md replaces it.`}
            autosize
            minRows={3}
            maxRows={10}
            maxLength={2000}
            data-autofocus
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
          <DialogFooter
            label="Save label"
            pending={pending}
            error={error}
            errorTitle="Not relabelled"
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
