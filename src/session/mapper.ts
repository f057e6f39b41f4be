import type { Schema } from '../api/types.js';
import { toOrgMembership } from '../orgs/mapper.js';
import type { OrgAccess } from '../orgs/store.js';
import type { User } from '../users/store.js';

/** The signed-in user and the organizations they are an active member of, each with their role there. */
export const toMeResponse = (user: User, memberships: OrgAccess[]): Schema<'MeResponse'> => ({
  user: { id: user.id, imOpenId: user.imOpenId, displayName: user.displayName, avatarUrl: user.avatarUrl },
  organizations: memberships.map(toOrgMembership),
});
