import { List, Stack, Text } from '@mantine/core';
import { QueryError } from '../../../components/query-error';
import { useOrg } from '../../../lib/authorization';
import { useModelPicker } from '../api/policies';

/**
 * The model picker for a project and a member: each model available or not, and why not in
 * admission's own sentences (the list and the check are one answer of the server).
 */
export function ModelAvailability({ projectId, imOpenId }: { projectId: string; imOpenId: string }) {
  const { org } = useOrg();
  const picker = useModelPicker(org.slug, projectId, `member:${imOpenId}`);
  if (picker.isError) return <QueryError error={picker.error} title="Could not ask which models are available" />;
  if (picker.isPending) return <Text c="dimmed">Asking which models are available…</Text>;
  const models = picker.data.models;
  const available = models.filter((m) => m.allowed).length;
  return (
    <Stack gap="xs" data-testid="model-availability">
      <Text size="sm">
        {available === 0 ? 'No model is available' : `${available} of ${models.length} models are available`} for this
        person in this project.
      </Text>
      <List spacing="xs" listStyleType="none" p={0}>
        {models.map((m) => (
          <List.Item key={m.id}>
            <Text span fw={600}>
              {m.label}
            </Text>
            <Text span> · {m.allowed ? 'available' : 'unavailable'}</Text>
            {!m.allowed && (
              <Text size="sm" c="dimmed" component="span" display="block" style={{ overflowWrap: 'anywhere' }}>
                Why: {(m.reasons ?? []).map((r) => r.message).join(' ')}
              </Text>
            )}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
