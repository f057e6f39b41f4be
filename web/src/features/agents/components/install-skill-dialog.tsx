import { formatCount } from '../../../lib/units';
import { Alert, Button, Checkbox, Group, Modal, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { DialogFooter, useDialogAction } from '../../../components/dialog-action';
import { ScrollRegion } from '../../../components/scroll-region';
import { errorMessage } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useInstallAgentSkill } from '../api/install-agent-skill';
import type { Skill } from './library-tree';
import {
  frontMatterValue,
  type PickedFile,
  pickedFromDrop,
  pickedFromInput,
  type ReadSkill,
  readSkillFiles,
  SKILL_NAME,
  suggestSkillName,
} from './skill-upload';

/** The request's own bound on files (InstallAgentSkillRequest.maxItems); the organization's limits come after. */
const MAX_FILES = 1000;
/** React passes the non-standard attribute through as written. */
const directoryInput = { webkitdirectory: '', directory: '' } as Record<string, string>;
const bytes = (s: string) => new TextEncoder().encode(s).length;

/**
 * Installs a skill from a folder (chosen in the browser's directory picker, or dropped) or from
 * loose files. The files are read as UTF-8 text, the picked folder is stripped from their paths so
 * `SKILL.md` lands at the root, and the server's refusal (422 `invalid_skill`) is shown as it says it.
 */
/** The UTF-8 size of every file's content together. */
const totalBytes = (files: { content: string }[]) => bytes(files.map((f) => f.content).join(''));

export function InstallSkillDialog({
  opened,
  fixedName,
  skills,
  onClose,
}: {
  opened: boolean;
  /** Set: installs a new version of this skill. */
  fixedName: string | null;
  skills: readonly Skill[];
  onClose: () => void;
}) {
  const { org } = useOrg();
  const install = useInstallAgentSkill();
  const { pending, error, run } = useDialogAction(opened, onClose);
  const small = useMediaQuery('(max-width: 36em)');
  const [name, setName] = useState('');
  const [version, setVersion] = useState('');
  const [read, setRead] = useState<ReadSkill | null>(null);
  const [reading, setReading] = useState(false);
  const [readError, setReadError] = useState<unknown>(null);
  const [leaveOut, setLeaveOut] = useState(false);
  const [dragOver, setDragOver] = useState(false);
  const folderInput = useRef<HTMLInputElement>(null);
  const filesInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!opened) return;
    setName(fixedName ?? '');
    setVersion('');
    setRead(null);
    setReadError(null);
    setLeaveOut(false);
  }, [opened, fixedName]);

  const take = async (picked: Promise<PickedFile[]> | PickedFile[]) => {
    setReading(true);
    setReadError(null);
    try {
      const list = await picked;
      if (list.length === 0) throw new Error('No file was chosen: the folder is empty.');
      const result = await readSkillFiles(list);
      setRead(result);
      setLeaveOut(false);
      const manifest = result.files.find((f) => f.path === 'SKILL.md')?.content ?? '';
      if (!fixedName) {
        const suggested = frontMatterValue(manifest, 'name') ?? (result.top ? suggestSkillName(result.top) : '');
        if (suggested) setName(suggested);
      }
      setVersion((v) => frontMatterValue(manifest, 'version') ?? (v || '0.0.0'));
    } catch (e) {
      setRead(null);
      setReadError(e);
    } finally {
      setReading(false);
    }
  };

  const existing = skills.find((s) => s.name === (fixedName ?? name));
  const hasManifest = read?.files.some((f) => f.path === 'SKILL.md') ?? false;
  const blocked = !!read && read.notText.length > 0 && !leaveOut;
  const tooMany = !!read && read.files.length > MAX_FILES;
  const nameError = name && !SKILL_NAME.test(name) ? 'Lowercase letters, digits and dashes (at most 64)' : null;
  const ready = !!read && read.files.length > 0 && !blocked && !tooMany && SKILL_NAME.test(name) && !!version.trim();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!ready || !read) return;
    run(async () => {
      const result = await install.mutateAsync({
        params: { path: { orgSlug: org.slug, name } },
        body: { version: version.trim(), files: read.files },
      });
      notifySuccess(`Installed skill ${result.name} ${version.trim()} (${result.contentDigest.slice(0, 12)}…)`);
    });
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={fixedName ? `Install a new version of ${fixedName}` : 'Install a skill'}
      size="lg"
      fullScreen={small}
      centered
    >
      <form onSubmit={submit}>
        <Stack>
          <Text size="sm">
            A skill is a folder: <code>SKILL.md</code> at its root, with YAML front matter, plus supporting text files.
          </Text>
          <Paper
            withBorder
            p="md"
            data-testid="skill-drop-zone"
            style={{
              borderStyle: 'dashed',
              background: dragOver ? 'var(--mantine-primary-color-light)' : undefined,
            }}
            onDragOver={(e) => {
              e.preventDefault();
              e.dataTransfer.dropEffect = 'copy';
              setDragOver(true);
            }}
            onDragLeave={() => setDragOver(false)}
            onDrop={(e) => {
              e.preventDefault();
              setDragOver(false);
              take(pickedFromDrop(e.dataTransfer));
            }}
          >
            <Stack gap="xs" align="center">
              <Group justify="center" wrap="wrap">
                <Button variant="light" onClick={() => folderInput.current?.click()} loading={reading}>
                  Choose a folder…
                </Button>
                <Button variant="default" onClick={() => filesInput.current?.click()} disabled={reading}>
                  Choose files…
                </Button>
              </Group>
              <Text size="sm" c="dimmed" ta="center">
                or drop the skill's folder or its files here
              </Text>
            </Stack>
            <input
              ref={folderInput}
              type="file"
              multiple
              {...directoryInput}
              aria-label="Skill folder"
              hidden
              onChange={(e) => {
                const files = e.currentTarget.files;
                if (files) take(pickedFromInput(files));
                e.currentTarget.value = '';
              }}
            />
            <input
              ref={filesInput}
              type="file"
              multiple
              aria-label="Skill files"
              hidden
              onChange={(e) => {
                const files = e.currentTarget.files;
                if (files) take(pickedFromInput(files));
                e.currentTarget.value = '';
              }}
            />
          </Paper>
          {readError !== null && (
            <Alert color="red" title="The files could not be read" role="alert">
              {errorMessage(readError)}
            </Alert>
          )}
          {read && (
            <Stack gap={6}>
              <Text size="sm" aria-live="polite">
                {read.files.length} text file{read.files.length === 1 ? '' : 's'}
                {read.top ? ` from ${read.top}/` : ''}, {formatCount(totalBytes(read.files))} bytes.
              </Text>
              <ScrollRegion label="Files to install" style={{ maxHeight: 180 }}>
                <Table fz="sm" verticalSpacing={2}>
                  <Table.Tbody>
                    {read.files.slice(0, 200).map((f) => (
                      <Table.Tr key={f.path}>
                        <Table.Td ff="monospace">{f.path}</Table.Td>
                        <Table.Td ta="right" c="dimmed">
                          {formatCount(bytes(f.content))} B
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
                {read.files.length > 200 && (
                  <Text size="xs" c="dimmed" p={4}>
                    …and {read.files.length - 200} more
                  </Text>
                )}
              </ScrollRegion>
              {!hasManifest && (
                <Alert color="yellow" variant="light">
                  There is no SKILL.md at the root: the server will refuse this skill.
                </Alert>
              )}
              {tooMany && (
                <Alert color="red" role="alert">
                  {formatCount(read.files.length)} files: a skill is sent with at most {MAX_FILES} files.
                </Alert>
              )}
              {read.notText.length > 0 && (
                <Alert color="yellow" title="Not text" variant="light">
                  Skills hold text only (the server refuses content that is not UTF-8):{' '}
                  {read.notText.slice(0, 10).join(', ')}
                  {read.notText.length > 10 ? ` and ${read.notText.length - 10} more` : ''}.
                  <Checkbox
                    mt="xs"
                    label={
                      read.notText.length === 1 ? 'Leave this file out' : `Leave these ${read.notText.length} files out`
                    }
                    checked={leaveOut}
                    onChange={(e) => setLeaveOut(e.currentTarget.checked)}
                  />
                </Alert>
              )}
            </Stack>
          )}
          <Group align="flex-start" wrap="wrap" grow>
            <TextInput
              label="Name"
              required
              disabled={fixedName !== null}
              description={fixedName ? undefined : 'From the front matter or the folder; lowercase, digits, dashes.'}
              value={name}
              error={nameError}
              onChange={(e) => setName(e.currentTarget.value)}
            />
            <TextInput
              label="Version"
              required
              description="Free-form, e.g. 1.2.0."
              maxLength={200}
              value={version}
              onChange={(e) => setVersion(e.currentTarget.value)}
            />
          </Group>
          {existing && (
            <Alert color="blue" variant="light">
              Replaces version {existing.version} of {existing.name}. It keeps its folder, its roles and its{' '}
              {existing.disabledAt ? 'disabled' : 'enabled'} state; the description comes from the new SKILL.md.
            </Alert>
          )}
          <DialogFooter
            label={existing ? 'Install new version' : 'Install skill'}
            pending={pending}
            disabled={!ready}
            error={error}
            errorTitle="The skill was not installed"
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
