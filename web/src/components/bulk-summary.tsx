import { Alert, List, Text } from '@mantine/core';
import type { BulkReport } from '../lib/bulk';

/** What a bulk action did: how many items succeeded, and each refusal with the server's message. */
export function BulkSummary({ report, onDismiss }: { report: BulkReport | null; onDismiss: () => void }) {
  if (!report) return null;
  const done = report.outcomes.filter((o) => o.ok);
  const refused = report.outcomes.filter((o) => !o.ok);
  const color = refused.length === 0 ? 'green' : done.length === 0 ? 'red' : 'yellow';
  return (
    <Alert
      color={color}
      title={`${report.action}: ${done.length} done, ${refused.length} refused`}
      role={refused.length ? 'alert' : 'status'}
      withCloseButton
      closeButtonLabel="Dismiss the summary"
      onClose={onDismiss}
      data-testid="bulk-summary"
    >
      {done.length > 0 && (
        <Text size="sm" mb={refused.length ? 'xs' : 0}>
          Done: {done.map((o) => o.label).join(', ')}
        </Text>
      )}
      {refused.length > 0 && (
        <List size="sm" spacing={2}>
          {refused.map((o) => (
            <List.Item key={o.key}>
              <Text span size="sm" fw={600}>
                {o.label}
              </Text>
              : {o.message}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

/** "Working… 2 of 5" while a bulk action runs. */
export function BulkProgress({ progress }: { progress: { done: number; total: number } | null }) {
  if (!progress) return null;
  return (
    <Text size="sm" c="dimmed" role="status">
      Working… {progress.done} of {progress.total}
    </Text>
  );
}
