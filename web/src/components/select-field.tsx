import { Select, type SelectProps } from '@mantine/core';

export type SelectOption<T extends string> = T | { value: T; label: string; disabled?: boolean };

type Shared<T extends string> = Omit<
  SelectProps,
  'data' | 'value' | 'defaultValue' | 'onChange' | 'allowDeselect' | 'clearable'
> & {
  data: readonly SelectOption<T>[];
  value?: T | null;
};

/** A clearable select reports `null` when cleared; any other select only ever reports a choice. */
export type SelectFieldProps<T extends string> = Shared<T> &
  ({ clearable?: false; onChange: (value: T) => void } | { clearable: true; onChange: (value: T | null) => void });

/**
 * The app's one select, so every choice looks, reads to a screen reader and is driven the same way
 * (Mantine's combobox: it searches long lists, which a native select cannot, and its listbox is
 * named by the field's label). Clicking the chosen option again keeps it: a choice is only undone
 * where the field says it is clearable. A searchable list says when nothing matches.
 */
export function SelectField<T extends string>(props: SelectFieldProps<T>) {
  const { data, onChange, clearable, nothingFoundMessage, ...rest } = props;
  return (
    <Select
      {...rest}
      data={data as SelectProps['data']}
      clearable={clearable}
      allowDeselect={clearable === true}
      nothingFoundMessage={nothingFoundMessage ?? (rest.searchable ? 'Nothing matches' : undefined)}
      onChange={(value) => {
        if (clearable || value !== null) (onChange as (value: T | null) => void)(value as T | null);
      }}
    />
  );
}
