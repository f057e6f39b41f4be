import type { Schema } from '../api/types.js';

export type Reason = Schema<'AdmissionReason'>;

/** One reason of a refusal: its code, the sentence that explains it, and where its rule was set. */
export const reason = (code: Reason['code'], source: Reason['source'], message: string): Reason => ({
  code,
  message,
  source,
});

/** A policy's scope as a sentence names it. */
export function describeSource(source: Reason['source']): string {
  const name = source.label === null ? '' : ` "${source.label}"`;
  switch (source.type) {
    case 'organization':
      return "The organization's usage policy";
    case 'folder':
    case 'project':
    case 'team':
      return `The usage policy of the ${source.type}${name || ` ${source.id}`}`;
    default:
      return `The ${source.type}${name}`;
  }
}
