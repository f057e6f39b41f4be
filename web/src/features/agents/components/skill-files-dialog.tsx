import { formatCount } from '../../../lib/units';
import { Button, Code, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { QueryError } from '../../../components/query-error';
import { ScrollRegion } from '../../../components/scroll-region';
import { useOrg } from '../../../lib/authorization';
import { useAgentSkillFiles } from '../api/get-agent-skill-files';
import type { Skill } from './library-tree';
import { SelectField } from '../../../components/select-field';

const bytes = (s: string) => new TextEncoder().encode(s).length;

/** The stored files of a skill, one at a time (SKILL.md first when there is one). */
export function SkillFilesDialog({ skill, onClose }: { skill: Skill | null; onClose: () => void }) {
  const { org } = useOrg();
  const files = useAgentSkillFiles(org.slug, skill?.name ?? null);
  const small = useMediaQuery('(max-width: 36em)');
  const [path, setPath] = useState<string | null>(null);
  const list = files.data?.files ?? [];
  useEffect(() => {
    if (!skill) setPath(null);
  }, [skill]);
  const shown = list.find((f) => f.path === path) ?? list.find((f) => f.path === 'SKILL.md') ?? list[0];
  return (
    <Modal
      opened={skill !== null}
      onClose={onClose}
      title={skill ? `Files of ${skill.name} ${skill.version}` : 'Files'}
      size="xl"
      fullScreen={small}
      centered
    >
      <Stack>
        {skill && (
          <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
            Content digest <code>{skill.contentDigest}</code>
          </Text>
        )}
        {files.isPending && skill && <Loader size="sm" aria-label="Loading files" />}
        {files.isError && <QueryError error={files.error} title="The files could not be loaded" />}
        {shown && (
          <>
            <SelectField
              label={`File (${list.length})`}
              value={shown.path}
              onChange={setPath}
              data={list.map((f) => ({ value: f.path, label: `${f.path} · ${formatCount(bytes(f.content))} B` }))}
            />
            <ScrollRegion label={`Content of ${shown.path}`} style={{ maxHeight: small ? '60vh' : '55vh' }}>
              <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {shown.content || ' '}
              </Code>
            </ScrollRegion>
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
