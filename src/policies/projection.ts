import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';
import type { Allow } from './resolver.js';
import type { PolicyRecord } from './store.js';

/** The stored allow; only this area writes it, so anything but an object is a bug. */
export function parseAllow(text: string): Allow {
  const allow: unknown = JSON.parse(text);
  if (typeof allow !== 'object' || allow === null || Array.isArray(allow))
    throw new Error('usage_policies.allow holds something other than a JSON object');
  return allow as Allow;
}

/** A policy as the API shows it. */
export const policyProjection = projection<PolicyRecord, Schema<'UsagePolicy'>>()({
  fields: {
    id: 'id',
    scope: {
      from: (row) =>
        row.scope_type === 'organization' ? { type: row.scope_type } : { type: row.scope_type, id: row.scope_id },
    },
    allow: { column: 'allow', as: parseAllow },
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
});
