import { Alert, Button, Group, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { errorMessage, type Schemas } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import { useUpdateMe } from '../api/my-sessions';

/**
 * The name the person gives themselves, for someone no identity provider names; once a provider
 * gives the name, it says so instead.
 */
export function DisplayNameForm({ user }: { user: Schemas['CurrentUser'] }) {
  const update = useUpdateMe();
  const [name, setName] = useState(user.displayName);
  if (!user.displayNameEditable) {
    return (
      <Text size="sm" c="dimmed">
        Your name comes from the identity provider you sign in with; change it there.
      </Text>
    );
  }
  const trimmed = name.trim();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    update.mutate({ body: { displayName: trimmed } }, { onSuccess: () => notifySuccess('Your name is saved') });
  };
  return (
    <form onSubmit={submit} aria-label="Your display name">
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="Display name"
          description="Shown to the organizations you are in"
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.currentTarget.value)}
          w={280}
        />
        <Button type="submit" loading={update.isPending} disabled={!trimmed || trimmed === user.displayName}>
          Save name
        </Button>
      </Group>
      {update.isError && (
        <Alert color="red" mt="sm" title="Name not saved" role="alert">
          {errorMessage(update.error)}
        </Alert>
      )}
    </form>
  );
}
