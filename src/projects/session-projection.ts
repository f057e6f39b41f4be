import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';

/** An agent session of a project. */
export interface SessionRecord {
  id: string;
  provider: string;
  role_id: string;
  model: string;
  title: string | null;
  run_count: number | string;
  created_at: string;
  updated_at: string;
}

/** A session as the project's list shows it; most recently active first, then by id. */
export const sessionProjection = projection<SessionRecord, Schema<'SessionSummary'>>()({
  fields: {
    id: 'id',
    provider: 'provider',
    roleId: 'role_id',
    model: 'model',
    title: 'title',
    runCount: { column: 'run_count', as: Number },
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  order: [
    { column: 'updated_at', by: 'codeUnitsDescending' },
    { column: 'id', by: 'codeUnitsDescending' },
  ],
});
