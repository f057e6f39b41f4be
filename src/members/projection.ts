import type { Schema } from '../api/types.js';
import type { OrgRole } from '../orgs/store.js';
import { projection } from '../shared/projection.js';

/** An active membership joined to its user. */
export interface OrgMemberRecord {
  user_id: string;
  im_open_id: string;
  display_name: string;
  avatar_url: string | null;
  role: OrgRole;
  created_at: string;
}

export type OrgMember = Schema<'OrgMember'>;

/** A member as the API shows it; the list by display name as people read it, then imOpenId. */
export const memberProjection = projection<OrgMemberRecord, OrgMember>()({
  fields: {
    userId: 'user_id',
    imOpenId: 'im_open_id',
    displayName: 'display_name',
    avatarUrl: 'avatar_url',
    role: 'role',
    createdAt: 'created_at',
  },
  order: [
    { column: 'display_name', by: 'name' },
    { column: 'im_open_id', by: 'codeUnits' },
  ],
});
