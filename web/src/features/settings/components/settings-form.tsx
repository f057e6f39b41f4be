import { Paper, Stack, Switch, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { QueryError } from '../../../components/query-error';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useSettings } from '../../../lib/queries/get-settings';
import { useUpdateSettings } from '../api/update-settings';
import { SaveFooter } from './save-footer';

export function SettingsForm() {
  const { org } = useOrg();
  const settings = useSettings(org.slug);
  const update = useUpdateSettings();
  const [value, setValue] = useState(false);
  useEffect(() => {
    if (settings.data) setValue(settings.data.membersCanCreateProjects);
  }, [settings.data]);
  if (settings.isError) return <QueryError error={settings.error} />;
  const dirty = settings.data !== undefined && value !== settings.data.membersCanCreateProjects;
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      aria-labelledby="projects-settings-title"
      onSubmit={(e: React.FormEvent) => {
        e.preventDefault();
        update.mutate(
          { params: { path: { orgSlug: org.slug } }, body: { membersCanCreateProjects: value } },
          { onSuccess: () => notifySuccess('Settings saved') },
        );
      }}
    >
      <Stack>
        <Title order={2} size="h4" id="projects-settings-title">
          Projects
        </Title>
        <Switch
          label="Members can create projects"
          description={
            'When on, a MEMBER may create projects (and gets MANAGE on what they create). ' + 'Org admins always can.'
          }
          checked={value}
          disabled={settings.isPending}
          onChange={(e) => setValue(e.currentTarget.checked)}
        />
        <SaveFooter update={update} dirty={dirty} label="Save" />
      </Stack>
    </Paper>
  );
}
