import { Group, Stack, Textarea } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { SelectField } from '../../../components/select-field';
import type { AllowFields } from './policy-model';

const MODES = [
  { value: 'any' as const, label: 'Any (no narrowing)' },
  { value: 'only' as const, label: 'Only these' },
];

const LISTS = [
  { key: 'models', label: 'Models', hint: 'Model ids of the model picker, comma-separated' },
  { key: 'providers', label: 'Providers', hint: 'Provider ids, comma-separated' },
  { key: 'capabilities', label: 'Capabilities', hint: 'One a line: search, or search: query, fetch for some tools' },
] as const;

/** The three lists of an allow; "Only these" with nothing named allows nothing of its kind. */
export function AllowFieldset({ form }: { form: UseFormReturnType<AllowFields> }) {
  return (
    <Stack gap="xs">
      {LISTS.map(({ key, label, hint }) => (
        <Group key={key} align="flex-start" wrap="wrap">
          <SelectField
            label={label}
            data={MODES}
            w={190}
            value={form.values[key].mode}
            onChange={(mode) => form.setFieldValue(`${key}.mode`, mode)}
          />
          {form.values[key].mode === 'only' && (
            <Textarea
              label={`${label} allowed`}
              description={`${hint}; leave it empty to allow none`}
              autosize
              minRows={1}
              miw={0}
              style={{ flex: '1 1 240px' }}
              {...form.getInputProps(`${key}.text`)}
            />
          )}
        </Group>
      ))}
    </Stack>
  );
}
