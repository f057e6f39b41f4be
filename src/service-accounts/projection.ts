import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';

export interface ServiceAccountTeamRecord {
  id: string;
  slug: string;
  name: string;
}

/** A live service account: its own row, the role its membership carries, and who made it. */
export interface ServiceAccountRecord {
  id: string;
  name: string;
  description: string | null;
  role: 'MEMBER' | 'ADMIN';
  disabled_at: string | null;
  created_at: string;
  created_by: string | null;
  created_by_name: string | null;
}

/** With the teams it belongs to, read beside it. */
export type ServiceAccountWithTeams = ServiceAccountRecord & { teams: ServiceAccountTeamRecord[] };

/** A service account as the API shows it; lists by name as people read it, then id. */
export const serviceAccountProjection = projection<ServiceAccountWithTeams, Schema<'ServiceAccount'>>()({
  fields: {
    id: 'id',
    name: 'name',
    description: 'description',
    role: 'role',
    disabledAt: 'disabled_at',
    createdAt: 'created_at',
    createdBy: {
      from: (row) => (row.created_by === null ? null : { id: row.created_by, displayName: row.created_by_name ?? '' }),
    },
    teams: {
      column: 'teams',
      as: (teams) => [...teams].sort((a, b) => a.name.localeCompare(b.name)).map((t) => ({ ...t })),
    },
  },
  order: [
    { column: 'name', by: 'name' },
    { column: 'id', by: 'codeUnits' },
  ],
});
