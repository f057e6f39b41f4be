/**
 * Projects nobody can manage any more: shown when a member's end leaves them so (members) and in
 * the projects explorer's filter (lifecycle), with the command an operator runs to release them.
 */
import { Button, Code, CopyButton, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { createContext, type ReactNode, useCallback, useContext, useState } from 'react';
import type { Schemas } from '../lib/api-client';

type Unmanaged = Schemas['UnmanagedProject'];

/** What to tell the host's operator: org admins cannot manage these, only a force-release helps. */
export const OPERATOR_HELP =
  'Nobody can manage these projects now, and org admins get no override: ask the operator of this hub to run ' +
  'the command, with the imOpenId of a member or the slug of a team in place of <imOpenId|team-slug>.';

function CommandCell({ command }: { command: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Code style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>{command}</Code>
      <CopyButton value={command}>
        {({ copied, copy }) => (
          <Button size="compact-xs" variant="default" onClick={copy}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

export function UnmanagedTable({ projects, label }: { projects: Unmanaged[]; label: string }) {
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table aria-label={label} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Project</Table.Th>
            <Table.Th>Command for the operator</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {projects.map((p) => (
            <Table.Tr key={p.id}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{p.name}</Table.Td>
              <Table.Td>
                <CommandCell command={p.forceReleaseCommand} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

const ShowUnmanaged = createContext<(projects: Unmanaged[]) => void>(() => undefined);

/** Shows the projects a membership's end left without a manager, once the change is done. */
export const useShowUnmanaged = () => useContext(ShowUnmanaged);

/**
 * Holds the dialog above the rows that end memberships, so it stays open after the revoked row
 * leaves the list. Several revokes in a row add up.
 */
export function UnmanagedProjectsDialog({ children }: { children: ReactNode }) {
  const [projects, setProjects] = useState<Unmanaged[]>([]);
  const show = useCallback((more: Unmanaged[]) => {
    if (more.length) setProjects((shown) => [...shown, ...more.filter((p) => !shown.some((s) => s.id === p.id))]);
  }, []);
  return (
    <ShowUnmanaged.Provider value={show}>
      {children}
      <Modal
        opened={projects.length > 0}
        onClose={() => setProjects([])}
        title="Projects nobody can manage now"
        centered
        size="lg"
      >
        <Stack>
          <Text size="sm">The member held the only MANAGE on these projects. {OPERATOR_HELP}</Text>
          <UnmanagedTable projects={projects} label="Projects nobody can manage now" />
          <Group justify="flex-end">
            <Button onClick={() => setProjects([])}>Done</Button>
          </Group>
        </Stack>
      </Modal>
    </ShowUnmanaged.Provider>
  );
}
