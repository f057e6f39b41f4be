import type { Schema } from '../http/operation-types.js';
import type { OrgMemberRecord } from './store.js';

/** A member as the API shows it. */
export const toOrgMember = (row: OrgMemberRecord): Schema<'OrgMember'> => ({
  userId: row.user_id,
  imOpenId: row.im_open_id,
  displayName: row.display_name,
  avatarUrl: row.avatar_url,
  role: row.role,
  createdAt: row.created_at,
});
