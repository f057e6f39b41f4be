import type { Schema } from '../api/types.js';
import { type MyMembership, orgMembershipProjection } from '../orgs/projection.js';
import { projection } from '../shared/projection.js';
import type { User } from '../users/store.js';
import { describeDevice } from '../auth/device.js';
import type { SessionRecord } from '../auth/session-store.js';

/** The signed-in user and the organizations they are an active member of, with their teams there. */
export interface MeRecord {
  user: User;
  memberships: MyMembership[];
}

/** The signed-in user as `/me` shows them: their profile without its bookkeeping. */
const currentUserProjection = projection<User, Schema<'CurrentUser'>>()({
  fields: {
    id: 'id',
    imOpenId: 'imOpenId',
    displayName: 'displayName',
    avatarUrl: 'avatarUrl',
    displayNameEditable: { from: (user) => user.displayNameSource !== 'provider' },
  },
});

/** `/me`: the user, and each of their organizations with their role there. */
export const meProjection = projection<MeRecord, Schema<'MeResponse'>>()({
  fields: {
    user: { column: 'user', as: currentUserProjection.toApi },
    organizations: { column: 'memberships', as: (memberships) => memberships.map(orgMembershipProjection.toApi) },
  },
});

/** One of the person's sessions as their list shows it. */
export const mySessionProjection = projection<SessionRecord & { currentId: string }, Schema<'MySession'>>()({
  fields: {
    id: 'id',
    device: { from: (row) => describeDevice(row.user_agent) },
    address: 'address',
    createdAt: 'created_at',
    lastSeenAt: 'last_seen_at',
    current: { from: (row) => row.id === row.currentId },
  },
});
