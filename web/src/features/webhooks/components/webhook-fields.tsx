import { TagsInput, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { EVENT_SUGGESTIONS } from './events';

export interface WebhookFormValues {
  url: string;
  description: string;
  events: string[];
}

export const webhookValidation = {
  // Whether the service may call the URL is its to say (422 url_not_allowed, shown by the form).
  url: (v: string) => (v.trim() ? null : 'Give the receiver’s https URL'),
  events: (v: string[]) => (v.length ? null : 'Pick at least one event'),
};

/** The fields an endpoint is made and edited with: where it goes and what it is told of. */
export function WebhookFields({ form }: { form: UseFormReturnType<WebhookFormValues> }) {
  return (
    <>
      <TextInput label="URL" required placeholder="https://hooks.example.com/hub" {...form.getInputProps('url')} />
      <TextInput label="Description" placeholder="e.g. CRM sync" {...form.getInputProps('description')} />
      <TagsInput
        label="Events"
        description="Pick from the list or type an operation; * is every change, hub.* every host-console change"
        data={EVENT_SUGGESTIONS}
        clearable
        {...form.getInputProps('events')}
      />
    </>
  );
}
