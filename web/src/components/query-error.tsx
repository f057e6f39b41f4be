import { Alert } from '@mantine/core';
import { errorMessage } from '../lib/api-client';

export function QueryError({ error, title = 'Could not load' }: { error: unknown; title?: string }) {
  return (
    <Alert color="red" title={title} role="alert">
      {errorMessage(error)}
    </Alert>
  );
}
