import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { optionsOf, pick, renderInOrg } from '../test/render';
import { SelectField } from './select-field';

type Role = 'ADMIN' | 'MEMBER';

function RolePicker({ onChange }: { onChange: (role: Role) => void }) {
  const [role, setRole] = useState<Role>('MEMBER');
  return (
    <SelectField
      label="Role"
      data={['ADMIN', 'MEMBER']}
      value={role}
      onChange={(next) => {
        setRole(next);
        onChange(next);
      }}
    />
  );
}

function TargetFilter({ onChange }: { onChange: (value: string | null) => void }) {
  const [value, setValue] = useState<string | null>('team');
  return (
    <SelectField
      label="Target type"
      clearable
      data={[
        { value: 'team', label: 'Team' },
        { value: 'project', label: 'Project' },
      ]}
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

describe('SelectField', () => {
  it('reads as a combobox named by its label, with the chosen label as its value', async () => {
    const changes = vi.fn();
    const { user } = renderInOrg(<RolePicker onChange={changes} />);
    const box = screen.getByRole('combobox', { name: 'Role' });
    expect(box).toHaveValue('MEMBER');
    expect(await optionsOf(user, box)).toEqual(['ADMIN', 'MEMBER']);

    await pick(user, box, 'ADMIN');
    expect(changes).toHaveBeenCalledWith('ADMIN');
    expect(box).toHaveValue('ADMIN');
  });

  it('keeps a choice when its option is chosen again', async () => {
    const roleChanges = vi.fn();
    const { user } = renderInOrg(<RolePicker onChange={roleChanges} />);
    const role = screen.getByRole('combobox', { name: 'Role' });
    await pick(user, role, 'MEMBER');
    expect(roleChanges).not.toHaveBeenCalled();
    expect(role).toHaveValue('MEMBER');
  });

  it('a clearable field reports null when cleared', async () => {
    const changes = vi.fn();
    const { user } = renderInOrg(<TargetFilter onChange={changes} />);
    const box = screen.getByRole('combobox', { name: 'Target type' });
    expect(box).toHaveValue('Team');
    await pick(user, box, 'Team');
    expect(changes).toHaveBeenLastCalledWith(null);
    expect(box).toHaveValue('');
  });
});
