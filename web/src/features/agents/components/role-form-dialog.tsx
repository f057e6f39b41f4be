import { formatCount } from '../../../lib/units';
import {
  Alert,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useMemo } from 'react';
import { DialogFooter, useDialogAction } from '../../../components/dialog-action';
import { QueryError } from '../../../components/query-error';
import { useOrg } from '../../../lib/authorization';
import { folderOptions, TOP_LEVEL } from '../../../lib/folder-tree';
import { notifySuccess } from '../../../lib/notify';
import { useAgentLibrary } from '../api/get-agent-library';
import { useAgentModels } from '../api/get-agent-models';
import { usePutAgentRole } from '../api/put-agent-role';
import { buildLibrary, LIBRARY_ROOT, type Role } from './library-tree';
import { SelectField } from '../../../components/select-field';

const ROLE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const PROMPT_MAX = 100_000;
type ToolsMode = 'default' | 'none' | 'list';

type Values = {
  roleId: string;
  label: string;
  defaultModel: string | null;
  systemPrompt: string;
  toolsMode: ToolsMode;
  tools: string[];
  sortOrder: number | string;
  isDefault: boolean;
  folder: string;
};

function valuesOf(role: Role | null, roles: readonly Role[]): Values {
  if (!role) {
    const last = roles.reduce((max, r) => Math.max(max, r.sortOrder), Number.NEGATIVE_INFINITY);
    return {
      roleId: '',
      label: '',
      defaultModel: null,
      systemPrompt: '',
      toolsMode: 'default',
      tools: [],
      sortOrder: Number.isFinite(last) ? Math.min(last + 10, 2_147_483_647) : 0,
      isDefault: false,
      folder: TOP_LEVEL,
    };
  }
  return {
    roleId: role.roleId,
    label: role.label,
    defaultModel: role.defaultModel,
    systemPrompt: role.systemPrompt ?? '',
    toolsMode: role.tools === null ? 'default' : role.tools.length === 0 ? 'none' : 'list',
    tools: role.tools ?? [],
    sortOrder: role.sortOrder,
    isDefault: role.isDefault,
    folder: role.libraryFolderId ?? TOP_LEVEL,
  };
}

/**
 * Creates a role or edits one: label, the model picker, the system prompt, the tools, the order,
 * the default flag and the library folder. A PUT replaces the whole definition, so the form
 * always sends every property (the skill bindings and the disabled state are not part of it).
 */
export function RoleFormDialog({
  opened,
  role,
  roles,
  onClose,
}: {
  opened: boolean;
  /** null: a new role. */
  role: Role | null;
  roles: readonly Role[];
  onClose: () => void;
}) {
  const { org } = useOrg();
  const orgSlug = org.slug;
  const models = useAgentModels(orgSlug);
  const library = useAgentLibrary(orgSlug);
  const put = usePutAgentRole();
  const { pending, error, run } = useDialogAction(opened, onClose);
  const small = useMediaQuery('(max-width: 36em)');
  const taken = useMemo(() => new Set(roles.map((r) => r.roleId)), [roles]);
  const form = useForm<Values>({
    initialValues: valuesOf(role, roles),
    validate: {
      roleId: (v) =>
        role
          ? null
          : !ROLE_ID.test(v)
            ? 'Letters, digits, dot, dash and underscore, starting with a letter or digit (at most 64)'
            : taken.has(v)
              ? 'A role with this id exists: edit it instead'
              : null,
      label: (v) => (v.trim() ? null : 'Enter a label'),
      sortOrder: (v) => (v === '' || !Number.isInteger(Number(v)) ? 'Enter a whole number' : null),
    },
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled each time the dialog opens.
  useEffect(() => {
    if (opened) {
      form.setValues(valuesOf(role, roles));
      form.resetDirty();
      form.clearErrors();
    }
  }, [opened, role]);

  const currentDefault = roles.find((r) => r.isDefault && r.roleId !== role?.roleId);
  const modelRows = models.data?.models ?? [];
  const modelGone =
    role?.defaultModel && !modelRows.some((m) => m.id === role.defaultModel) && models.isSuccess
      ? role.defaultModel
      : null;
  const modelData = [
    ...modelRows.map((m) => ({ value: m.id, label: `${m.label} (${m.id})${m.toolCapable ? '' : ' · no tools'}` })),
    ...(modelGone ? [{ value: modelGone, label: `${modelGone} (no longer offered)` }] : []),
  ];
  const promptLength = form.values.systemPrompt.length;
  const chosenModel = modelRows.find((m) => m.id === form.values.defaultModel);
  const folders = useMemo(
    () => folderOptions(buildLibrary(library.data?.folders, [], []), LIBRARY_ROOT),
    [library.data],
  );

  const submit = form.onSubmit((v) =>
    run(async () => {
      const saved = await put.mutateAsync({
        params: { path: { orgSlug, roleId: role?.roleId ?? v.roleId } },
        body: {
          label: v.label.trim(),
          defaultModel: v.defaultModel,
          systemPrompt: v.systemPrompt === '' ? null : v.systemPrompt,
          tools: v.toolsMode === 'default' ? null : v.toolsMode === 'none' ? [] : v.tools,
          sortOrder: Number(v.sortOrder),
          isDefault: v.isDefault,
          libraryFolderId: v.folder === TOP_LEVEL ? null : v.folder,
        },
      });
      notifySuccess(role ? `Saved role ${saved.label}` : `Created role ${saved.label}`);
    }),
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={role ? `Edit role ${role.label}` : 'New role'}
      size="lg"
      fullScreen={small}
      centered
    >
      <form onSubmit={submit}>
        <Stack>
          {role ? (
            <Text size="sm">
              Role id: <code>{role.roleId}</code>
            </Text>
          ) : (
            <TextInput
              label="Role id"
              description="Sessions name their role by this id; it cannot change later. Case-sensitive."
              required
              data-autofocus
              {...form.getInputProps('roleId')}
            />
          )}
          <TextInput label="Label" required {...form.getInputProps('label')} />
          <SelectField
            label="Default model"
            description="Left empty, the runtime chooses."
            placeholder={models.isPending ? 'Loading models…' : 'None: the runtime chooses'}
            clearable
            searchable
            data={modelData}
            nothingFoundMessage="No model matches"
            {...form.getInputProps('defaultModel')}
          />
          {models.isError && <QueryError error={models.error} title="The models could not be loaded" />}
          {modelGone && form.values.defaultModel === modelGone && (
            <Alert color="yellow" variant="light">
              {modelGone} is no longer offered: choose another model, or none, to save this role.
            </Alert>
          )}
          <Textarea
            label="System prompt"
            description={`${formatCount(promptLength)} of ${formatCount(PROMPT_MAX)} characters. Empty: none.`}
            autosize
            minRows={6}
            maxRows={18}
            maxLength={PROMPT_MAX}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
            {...form.getInputProps('systemPrompt')}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="role-tools-label">
              Tools
            </Text>
            <SegmentedControl
              aria-labelledby="role-tools-label"
              data={[
                { value: 'default', label: 'Runtime default' },
                { value: 'none', label: 'No tools' },
                { value: 'list', label: 'Only these' },
              ]}
              {...form.getInputProps('toolsMode')}
            />
            {form.values.toolsMode === 'list' && (
              <TagsInput
                aria-label="Tool names"
                description="Type a tool name and press Enter; a repeated name is kept once."
                placeholder="Tool name"
                maxTags={100}
                clearable
                {...form.getInputProps('tools')}
              />
            )}
            {chosenModel && !chosenModel.toolCapable && form.values.toolsMode !== 'none' && (
              <Text size="xs" c="dimmed">
                {chosenModel.label} cannot call tools.
              </Text>
            )}
          </Stack>
          <Group align="flex-start" wrap="wrap">
            <NumberInput
              label="Order"
              description="Lower comes first; ties go by label."
              allowDecimal={false}
              min={-2_147_483_648}
              max={2_147_483_647}
              w={180}
              {...form.getInputProps('sortOrder')}
            />
            <SelectField label="Library folder" data={folders} searchable w={240} {...form.getInputProps('folder')} />
          </Group>
          <Switch
            label="Default role"
            description={
              role?.disabledAt
                ? 'A disabled role cannot be the default: enable it first.'
                : form.values.isDefault && currentDefault
                  ? `Takes the default from ${currentDefault.label}.`
                  : 'The organization has one default role.'
            }
            disabled={!!role?.disabledAt && !role.isDefault}
            {...form.getInputProps('isDefault', { type: 'checkbox' })}
          />
          <DialogFooter
            label={role ? 'Save role' : 'Create role'}
            pending={pending}
            error={error}
            errorTitle={role ? 'Not saved' : 'Not created'}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
