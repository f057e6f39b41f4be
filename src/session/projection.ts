import type { Schema } from '../api/types.js';
import { orgMembershipProjection } from '../orgs/projection.js';
import type { OrgAccess } from '../orgs/store.js';
import { projection } from '../shared/projection.js';
import type { User } from '../users/store.js';

/** The signed-in user and the organizations they are an active member of. */
export interface MeRecord {
  user: User;
  memberships: OrgAccess[];
}

/** The signed-in user as `/me` shows them: their profile without its bookkeeping. */
const currentUserProjection = projection<User, Schema<'CurrentUser'>>()({
  fields: { id: 'id', imOpenId: 'imOpenId', displayName: 'displayName', avatarUrl: 'avatarUrl' },
});

/** `/me`: the user, and each of their organizations with their role there. */
export const meProjection = projection<MeRecord, Schema<'MeResponse'>>()({
  fields: {
    user: { column: 'user', as: currentUserProjection.toApi },
    organizations: { column: 'memberships', as: (memberships) => memberships.map(orgMembershipProjection.toApi) },
  },
});
