import type { Schema } from '../api/types.js';
import { GRANT_ROLES, type GrantRole } from '../grants/roles.js';
import type { AccessPathRow } from '../grants/store.js';
import { projection } from '../shared/projection.js';

/** A path by which a member reaches a project; the team's columns are null unless it is a team's grant. */
export type AccessPathRecord = Pick<AccessPathRow, 'type' | 'role' | 'team_id' | 'team_name'>;

/** A member who can open a project: the level their paths give, and the paths. */
export interface ProjectAccessRecord {
  user_id: string;
  im_open_id: string;
  display_name: string;
  level: GrantRole;
  via: AccessPathRecord[];
}

type AccessPath = Schema<'AccessPath'>;

/** A path as the API shows it: the team's id and name only on a team's grant. */
const toAccessPath = ({ type, role, team_id, team_name }: AccessPathRecord): AccessPath =>
  team_id === null ? { type, role } : { type, role, teamId: team_id, teamName: team_name ?? '' };

/** Who can open a project; the strongest level first, then by name as people read it, then imOpenId. */
export const projectAccessProjection = projection<ProjectAccessRecord, Schema<'ProjectAccessEntry'>>()({
  fields: {
    userId: 'user_id',
    imOpenId: 'im_open_id',
    displayName: 'display_name',
    level: 'level',
    via: { from: (row) => row.via.map(toAccessPath) },
  },
  order: [
    { column: 'level', by: { rankDescending: GRANT_ROLES } },
    { column: 'display_name', by: 'name' },
    { column: 'im_open_id', by: 'codeUnits' },
  ],
});
