import { Alert, List } from '@mantine/core';
import { errorMessage } from '../../../lib/api-client';

/** The server's message and, when it gave them, its individual problems (`details`), while a dialog stays open. */
export function ServerError({ error, title }: { error: unknown; title: string }) {
  if (error === null || error === undefined) return null;
  const details =
    typeof error === 'object' && 'error' in error
      ? ((error as { error?: { details?: { path: string; message: string }[] } }).error?.details ?? [])
      : [];
  return (
    <Alert color="red" title={title} role="alert">
      {errorMessage(error)}
      {details.length > 0 && (
        <List size="sm" mt={4}>
          {details.map((d) => (
            <List.Item key={`${d.path}:${d.message}`}>
              <code>{d.path}</code> {d.message}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
