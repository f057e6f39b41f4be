import type { Schema } from '../http/operation-types.js';
import type { TeamMemberRecord, TeamRecord } from './store.js';

/** A team as the API shows it; the count comes back from the database as a number or a bigint string. */
export const toTeamRow = (row: TeamRecord): Schema<'TeamRow'> => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  description: row.description,
  memberCount: Number(row.member_count),
  createdAt: row.created_at,
});

export const toTeamMemberRow = (row: TeamMemberRecord): Schema<'TeamMemberRow'> => ({
  userId: row.user_id,
  imOpenId: row.im_open_id,
  displayName: row.display_name,
  createdAt: row.created_at,
});
