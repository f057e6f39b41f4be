import { Paper, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { MemberField } from './effective-result';
import { ModelAvailability } from './model-availability';

/** On a project's page (org admins): which models a chosen member may run here, and why not the others. */
export function ProjectModels({ projectId }: { projectId: string }) {
  const [imOpenId, setImOpenId] = useState<string | null>(null);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="project-models-title">
      <Title order={2} size="h4" id="project-models-title" mb="xs">
        Models here
      </Title>
      <MemberField value={imOpenId} onChange={setImOpenId} />
      {imOpenId ? (
        <ModelAvailability projectId={projectId} imOpenId={imOpenId} />
      ) : (
        <Text size="sm" mt="xs">
          Choose a member to see which models they may run in this project, and why any is unavailable.
        </Text>
      )}
    </Paper>
  );
}
